import {
  ComponentSizeSchema,
  LANGS,
  ResultCode,
  type GroupView,
  type GroupViewSaveBody,
  type Lang,
  type UserSettings,
  type UserSettingsSaveBody,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import { ippsOfTeamAmong } from '../ipps/ipps.repository.ts';
import { requireOwnTeam, teamRequired, visibleGroup } from '../access/access.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import { findUserById, lockUser, updateUser, type UserRow } from '../users/users.repository.ts';
import { readUserView, writeUserView } from './group-view.repository.ts';
import { teamNotFound } from '../access/not-found.ts';

/** The user config of spec §3: the team a user looks at and the stations they follow, in their order. */
export class GroupViewService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(actor: UserRow, requestedGroup?: number, k: Kysely<Database> = this.db.kysely): Promise<GroupView> {
    const stored = await readUserView(k, actor.id);
    const groupId =
      actor.role === 'superadmin' ? (requestedGroup ?? stored?.group_id ?? null) : (visibleGroup(actor, requestedGroup) ?? null);
    if (groupId === null || !stored) return { group_id: groupId, loc: [] };
    // Instruments deleted or moved to another team since drop out of the list.
    const present = new Map((await ippsOfTeamAmong(k, groupId, stored.ids)).map((r) => [r.id, r.dev_id]));
    return {
      group_id: groupId,
      loc: stored.ids.filter((id) => present.has(id)).map((id) => ({ id, dev_id: present.get(id) ?? '' })),
    };
  }

  async set(actor: UserRow, body: GroupViewSaveBody, k: Kysely<Database> = this.db.kysely): Promise<GroupView> {
    const groupId = actor.role === 'superadmin' ? body.group_id : actor.group_id;
    requireOwnTeam(actor, body.group_id, () => new AppError(ResultCode.FORBIDDEN, 'forbidden'));
    const ids = [...new Set(body.ids)];
    if (groupId === null && ids.length > 0) throw teamRequired();
    if (groupId !== null) {
      // A superadmin names any team: one that does not exist is the caller's mistake, not a foreign-key failure (fuzzer).
      if (!(await findTeamById(k, groupId))) throw teamNotFound();
      const found = await ippsOfTeamAmong(k, groupId, ids);
      if (found.length !== ids.length) throw badParam('ids', 'reason.invalid');
    }
    await writeUserView(k, actor.id, groupId, ids, this.clock());
    return this.get(actor, groupId ?? undefined, k);
  }

  /**
   * POST /setting/save-user: the caller's own settings, never another account's (the body names no user). The
   * followed stations go through set() and its team checks first, so a refused station leaves language and size
   * unchanged too. One transaction, and two saves of one user take turns on the user's row: the stored settings are
   * always one call's, never half of each (PostgreSQL; SQLite writes one transaction at a time).
   */
  async saveUser(actor: UserRow, body: UserSettingsSaveBody): Promise<UserSettings> {
    return this.db.kysely.transaction().execute(async (trx) => {
      if (this.db.dialect === 'postgres') await lockUser(trx, actor.id);
      const view = body.view ? await this.set(actor, body.view, trx) : await this.get(actor, undefined, trx);
      const changes = {
        ...(body.language !== undefined ? { language: body.language } : {}),
        ...(body.size !== undefined ? { size: body.size } : {}),
      };
      if (Object.keys(changes).length > 0) await updateUser(trx, actor.id, { ...changes, updated_at: this.clock() });
      const row = (await findUserById(trx, actor.id)) ?? actor;
      return {
        language: (LANGS as readonly (string | null)[]).includes(row.language) ? (row.language as Lang) : null,
        size: ComponentSizeSchema.safeParse(row.size).data ?? null,
        view,
      };
    });
  }
}
