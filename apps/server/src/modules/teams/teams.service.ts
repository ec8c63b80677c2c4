import { ResultCode, type Team, type TeamIndexQuery, type TeamSaveBody } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as teams from './teams.repository.ts';
import { teamNotFound } from '../access/not-found.ts';

export class TeamsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** superadmin: every team; administrator: their own only. */
  async list(actor: UserRow, query: TeamIndexQuery): Promise<{ rows: Team[]; total: number }> {
    const filter: teams.TeamFilter = { name: query.name || undefined };
    if (actor.role !== 'superadmin') filter.onlyId = actor.group_id ?? -1;
    const { kysely } = this.db;
    const [total, rows] = await Promise.all([
      teams.countTeams(kysely, filter),
      teams.listTeams(kysely, filter, (query.page - 1) * query.limit, query.limit),
    ]);
    return { rows, total };
  }

  async save(body: TeamSaveBody): Promise<Team> {
    const id = await this.db.kysely.transaction().execute(async (trx) => {
      const clash = await teams.findTeamByName(trx, body.name);
      if (clash && clash.id !== body.id) throw badParam('name', 'reason.taken');
      if (body.id === undefined) return teams.insertTeam(trx, body.name, this.clock());
      if (!(await teams.findTeamById(trx, body.id))) throw teamNotFound('id');
      await teams.renameTeam(trx, body.id, body.name);
      return body.id;
    });
    const [row] = await teams.listTeams(this.db.kysely, { onlyId: id }, 0, 1);
    if (!row) throw teamNotFound('id');
    return row;
  }

  /** Refused while anything is attached, so no user is left pointing at a missing team. */
  async remove(id: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      if (!(await teams.findTeamById(trx, id))) throw teamNotFound('id');
      await teams.lockTeam(trx, id, this.db.dialect);
      const members = await teams.countMembers(trx, id);
      const ipps = await teams.countStations(trx, id);
      if (members.total > 0 || ipps > 0) throw new AppError(ResultCode.FAILED, 'teamHasMembers', { users: members.total, ipps });
      await teams.deleteTeam(trx, id);
    });
  }
}
