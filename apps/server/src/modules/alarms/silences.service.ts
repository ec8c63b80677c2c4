import { MAX_SILENCE_LEAD_MS, MAX_SILENCE_MS, MAX_SILENCES_PER_TEAM, ResultCode, type AlarmSilence } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { ownsTeamObject, teamActedOn, visibleGroup } from '../access/access.ts';
import { teamNotFound } from '../access/not-found.ts';
import type { UserRow } from '../users/users.repository.ts';
import { findRule, ippIdentity } from './alarms.repository.ts';
import * as repo from './silences.repository.ts';
import { lockTeam } from './notices.repository.ts';

const silenceNotFound = () => new AppError(ResultCode.BAD_PARAM, 'silenceNotFound', {}, 'id');

/**
 * Silences and maintenance windows (issue 40): anyone of a team mutes its alarms of a station, a rule, both, or all,
 * for a period with a reason; they raise and clear as always and stay listed, but their raises are told to nobody
 * until the silence ends (alarms.service.ts holds and then sends them). A silence ends by itself.
 */
export class SilencesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** A silence ended or was made: the team's stations are evaluated soon, so held notices go out. */
    private readonly changed: (groupId: number) => void,
  ) {}

  async list(actor: UserRow, groupId?: number): Promise<AlarmSilence[]> {
    const group = visibleGroup(actor, groupId) ?? actor.group_id;
    if (group === null || group === undefined) return [];
    return (await repo.silencesOfGroup(this.db.kysely, group, this.clock())).map(present);
  }

  async save(
    actor: UserRow,
    body: {
      group_id?: number;
      ipp_id: number | null;
      rule_id: number | null;
      starts_at?: number;
      ends_at: number;
      reason: string;
    },
  ): Promise<AlarmSilence> {
    const now = this.clock();
    const startsAt = Math.max(body.starts_at ?? now, now);
    if (body.ends_at <= now) throw new AppError(ResultCode.BAD_PARAM, 'silenceInPast', {}, 'ends_at');
    if (body.ends_at - startsAt > MAX_SILENCE_MS || startsAt - now > MAX_SILENCE_LEAD_MS)
      throw new AppError(ResultCode.BAD_PARAM, 'silenceTooLong', {}, 'ends_at');
    const group = teamActedOn(actor, body.group_id);
    const id = await this.db.kysely.transaction().execute(async (trx) => {
      // The team's row locked: two people at once cannot both pass the count.
      if (!(await lockTeam(trx, group, this.db.dialect === 'postgres'))) throw teamNotFound();
      if (body.ipp_id !== null) {
        const ipp = await ippIdentity(trx, body.ipp_id);
        if (!ipp || ipp.group_id !== group) throw new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, 'ipp_id');
      }
      if (body.rule_id !== null) {
        const rule = await findRule(trx, body.rule_id);
        if (!rule || rule.group_id !== group) throw new AppError(ResultCode.BAD_PARAM, 'alarmRuleNotFound', {}, 'rule_id');
      }
      if ((await repo.countLiveSilences(trx, group, now)) >= MAX_SILENCES_PER_TEAM)
        throw new AppError(ResultCode.FAILED, 'silenceLimit', { max: MAX_SILENCES_PER_TEAM });
      return repo.insertSilence(trx, {
        group_id: group,
        ipp_id: body.ipp_id,
        rule_id: body.rule_id,
        starts_at: startsAt,
        ends_at: body.ends_at,
        reason: body.reason,
        created_by: actor.id,
        created_by_name: actor.account,
        created_at: now,
      });
    });
    this.changed(group);
    return (await this.list(actor, group)).find((s) => s.id === id)!;
  }

  /** Ends a running silence now, or drops a planned one; anyone of its team. */
  async end(actor: UserRow, id: number) {
    const silence = await repo.findSilence(this.db.kysely, id);
    if (!silence || !ownsTeamObject(actor, silence.group_id)) throw silenceNotFound();
    if ((await repo.endSilence(this.db.kysely, id, this.clock())) === 0) throw silenceNotFound();
    this.changed(silence.group_id);
  }
}

function present(row: Awaited<ReturnType<typeof repo.silencesOfGroup>>[number]): AlarmSilence {
  return {
    id: row.id,
    group_id: row.group_id,
    ipp_id: row.ipp_id,
    site_name: row.ipp_id === null ? null : `${row.site_name ?? ''} (${row.dev_id ?? ''})`,
    rule_id: row.rule_id,
    rule_name: row.rule_name,
    starts_at: Number(row.starts_at),
    ends_at: Number(row.ends_at),
    reason: row.reason,
    created_by_name: row.created_by_name,
    created_at: Number(row.created_at),
  };
}
