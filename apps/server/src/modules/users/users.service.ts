import { ResultCode, type User, type UserIndexQuery, type UserSaveBody } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import { endOpenSessionsOfUser } from './sessions.repository.ts';
import { hashPassword } from '../../security/password.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { teamRequired, visibleGroup } from '../access/access.ts';
import * as teams from '../teams/teams.repository.ts';
import * as users from './users.repository.ts';
import type { UserRow } from './users.repository.ts';

const notFound = () => new AppError(ResultCode.BAD_PARAM, 'userNotFound', {}, 'id');

export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly scryptLogN: number,
  ) {}

  async list(actor: UserRow, query: UserIndexQuery): Promise<{ rows: User[]; total: number }> {
    // An administrator's search is confined to their own team; naming another team is refused.
    const filter: users.UserFilter = {
      ...query,
      group_id: visibleGroup(actor, query.group_id),
    };
    const [total, rows] = await Promise.all([
      users.countFilteredUsers(this.db.kysely, filter),
      users.listUsers(this.db.kysely, filter, (query.page - 1) * query.limit, query.limit),
    ]);
    return { rows, total };
  }

  async view(actor: UserRow, id: number): Promise<User> {
    const target = await users.findUserById(this.db.kysely, id);
    if (!target || !this.mayManage(actor, target)) throw notFound();
    return this.toUser(this.db.kysely, id);
  }

  async save(actor: UserRow, body: UserSaveBody): Promise<User> {
    const groupId = body.group_id;
    if (body.role !== 'superadmin' && groupId === null) throw teamRequired();
    if (body.id === undefined && !body.password) throw badParam('password', 'reason.required');
    if (actor.role !== 'superadmin') this.checkAdministratorGrant(actor, body);
    const passwordHash = body.password ? await hashPassword(body.password, this.scryptLogN) : null;
    const limits = await this.settings.get();

    const id = await this.db.kysely.transaction().execute(async (trx) => {
      const existing = body.id === undefined ? undefined : await users.findUserById(trx, body.id);
      if (body.id !== undefined && (!existing || !this.mayManage(actor, existing))) throw notFound();
      const clash = await users.findUserByAccount(trx, body.account);
      // Account names are global (sign-in needs them unique); the answer says only that the name is taken, never
      // whose it is or which team holds it (issue 20), and is the same for a name in the caller's team or another.
      if (clash && clash.id !== body.id) throw new AppError(ResultCode.BAD_PARAM, 'accountTaken', {}, 'account');
      if (groupId !== null) {
        if (!(await teams.findTeamById(trx, groupId))) throw badParam('group_id', 'reason.unknownTeam');
        await teams.lockTeam(trx, groupId, this.db.dialect);
        await this.checkTeamLimits(trx, groupId, body.role, existing, limits);
      }
      if (existing?.role === 'superadmin' && body.role !== 'superadmin' && (await users.countSuperadmins(trx)) <= 1) {
        throw new AppError(ResultCode.FAILED, 'lastSuperadmin');
      }
      const now = this.clock();
      const fields = {
        account: body.account,
        name: body.name,
        phone: body.phone,
        email: body.email,
        group_id: groupId,
        role: body.role,
      };
      if (!existing) {
        return users.insertUser(trx, {
          ...fields,
          password_hash: passwordHash ?? '',
          avatar: '',
          is_demo: 0,
          created_at: now,
          updated_at: now,
        });
      }
      await users.updateUser(trx, existing.id, {
        ...fields,
        ...(passwordHash ? { password_hash: passwordHash } : {}),
        updated_at: now,
      });
      // A changed role, team or password ends that user's sessions (the editor's own included, unless unchanged).
      if (passwordHash || existing.role !== body.role || existing.group_id !== groupId) {
        await endOpenSessionsOfUser(trx, existing.id, now, 'revoked');
      }
      return existing.id;
    });
    return this.toUser(this.db.kysely, id);
  }

  async remove(actor: UserRow, id: number) {
    if (id === actor.id) throw new AppError(ResultCode.FAILED, 'cannotDeleteSelf');
    await this.db.kysely.transaction().execute(async (trx) => {
      const target = await users.findUserById(trx, id);
      if (!target || !this.mayManage(actor, target)) throw notFound();
      if (target.role === 'superadmin' && (await users.countSuperadmins(trx)) <= 1)
        throw new AppError(ResultCode.FAILED, 'lastSuperadmin');
      await users.deleteUser(trx, id);
    });
  }

  /** superadmin: everyone; administrator: themselves and the Users of their own team; user: nobody. */
  private mayManage(actor: UserRow, target: UserRow) {
    if (actor.role === 'superadmin') return true;
    if (actor.role !== 'administrator' || actor.group_id === null) return false;
    return target.id === actor.id || (target.group_id === actor.group_id && target.role === 'user');
  }

  /** An administrator keeps everything in their own team and grants only the role User (their own role stays). */
  private checkAdministratorGrant(actor: UserRow, body: UserSaveBody) {
    const self = body.id === actor.id;
    if (actor.role !== 'administrator' || body.group_id !== actor.group_id)
      throw new AppError(ResultCode.FORBIDDEN, 'adminOwnTeamOnly', {}, 'group_id');
    if (self ? body.role !== actor.role : body.role !== 'user')
      throw new AppError(ResultCode.FORBIDDEN, self ? 'adminOwnRole' : 'adminGrantsUserOnly', {}, 'role');
  }

  private async checkTeamLimits(
    trx: Kysely<Database>,
    groupId: number,
    role: UserSaveBody['role'],
    existing: UserRow | undefined,
    limits: { team_max_admins: number; team_max_users: number },
  ) {
    if (role === 'superadmin') return;
    if (existing && existing.group_id === groupId && existing.role === role) return;
    const members = await teams.countMembers(trx, groupId);
    const full = role === 'administrator' ? members.admins >= limits.team_max_admins : members.users >= limits.team_max_users;
    if (full)
      throw new AppError(
        ResultCode.FAILED,
        'teamLimit',
        { admins: limits.team_max_admins, users: limits.team_max_users },
        'role',
      );
  }

  private async toUser(db: Kysely<Database>, id: number): Promise<User> {
    const row = await users.findUserView(db, id);
    if (!row) throw notFound();
    return row;
  }
}
