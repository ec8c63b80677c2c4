import { MAX_ALARM_COMMENTS, ResultCode, type AlarmComment } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { ownsTeamObject } from '../access/access.ts';
import type { UserRow } from '../users/users.repository.ts';
import { findAlarm, lockAlarm } from './alarms.repository.ts';
import * as repo from './comments.repository.ts';

const alarmNotFound = () => new AppError(ResultCode.BAD_PARAM, 'alarmNotFound', {}, 'id');

/** The comment thread of each alarm (issue 40): what the team did about it, append-only, for its team only. */
export class AlarmCommentsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The comment thread of an alarm of the caller's team, oldest first. */
  async comments(actor: UserRow, alarmId: number): Promise<AlarmComment[]> {
    const alarm = await findAlarm(this.db.kysely, alarmId);
    if (!alarm || !ownsTeamObject(actor, alarm.group_id)) throw alarmNotFound();
    return (await repo.commentsOf(this.db.kysely, alarmId)).map((c) => ({ ...c, created_at: Number(c.created_at) }));
  }

  /** Anyone of the alarm's team adds a comment (open or cleared: the thread is the record); at most MAX_ALARM_COMMENTS. */
  async comment(actor: UserRow, body: { id: number; text: string }): Promise<AlarmComment> {
    const now = this.clock();
    const row = await this.db.kysely.transaction().execute(async (trx) => {
      // Locked, so two people commenting at once on a full thread cannot both pass the count.
      const alarm = await lockAlarm(trx, body.id, this.db.dialect === 'postgres');
      if (!alarm || !ownsTeamObject(actor, alarm.group_id)) throw alarmNotFound();
      if ((await repo.countComments(trx, body.id)) >= MAX_ALARM_COMMENTS)
        throw new AppError(ResultCode.FAILED, 'alarmCommentLimit', { max: MAX_ALARM_COMMENTS });
      return repo.insertComment(trx, {
        alarm_id: body.id,
        user_id: actor.id,
        user_name: actor.account,
        text: body.text,
        created_at: now,
      });
    });
    return { ...row, created_at: Number(row.created_at) };
  }
}
