import { sql, type Kysely } from 'kysely';
import type { Team } from '@ipp/contracts';
import { escapeLike } from '../../db/query-helpers.ts';
import type { Database } from '../../db/schema.ts';

export function findTeamById(db: Kysely<Database>, id: number) {
  return db.selectFrom('teams').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

export function findTeamByName(db: Kysely<Database>, name: string) {
  return db.selectFrom('teams').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

export async function insertTeam(db: Kysely<Database>, name: string, now: number): Promise<number> {
  const row = await db.insertInto('teams').values({ name, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function renameTeam(db: Kysely<Database>, id: number, name: string) {
  await db.updateTable('teams').set({ name }).where('id', '=', id).execute();
}

export async function deleteTeam(db: Kysely<Database>, id: number) {
  await db.deleteFrom('teams').where('id', '=', id).execute();
}

/** Locks the team row on PostgreSQL so concurrent member changes check the team limits one at a time. */
export async function lockTeam(db: Kysely<Database>, id: number, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'postgres') await db.selectFrom('teams').select('id').where('id', '=', id).forUpdate().execute();
}

export interface TeamFilter {
  name?: string;
  /** Only this team (an administrator's own). */
  onlyId?: number;
}

function filtered(db: Kysely<Database>, filter: TeamFilter) {
  let query = db.selectFrom('teams as t');
  if (filter.onlyId !== undefined) query = query.where('t.id', '=', filter.onlyId);
  if (filter.name)
    query = query.where(sql<boolean>`lower(t.name) like ${`%${escapeLike(filter.name.toLowerCase())}%`} escape '\\'`);
  return query;
}

export async function countTeams(db: Kysely<Database>, filter: TeamFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of teams with their member counts and their (first) administrator. */
export async function listTeams(db: Kysely<Database>, filter: TeamFilter, offset: number, limit: number): Promise<Team[]> {
  const count = (role: string) => sql<number>`(select count(*) from users u where u.group_id = t.id and u.role = ${role})`;
  const rows = await filtered(db, filter)
    .select([
      't.id',
      't.name',
      't.created_at',
      count('superadmin').as('superadmin_count'),
      count('administrator').as('admin_count'),
      count('user').as('user_count'),
      sql<
        string | null
      >`(select u.account from users u where u.group_id = t.id and u.role = 'administrator' order by u.id limit 1)`.as(
        'admin_account',
      ),
      sql<
        string | null
      >`(select u.name from users u where u.group_id = t.id and u.role = 'administrator' order by u.id limit 1)`.as('admin_name'),
    ])
    .orderBy('t.id')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    superadmin_count: Number(r.superadmin_count),
    admin_count: Number(r.admin_count),
    user_count: Number(r.user_count),
  }));
}

/** The stations a team holds (a team with any is not deleted). */
export async function countStations(db: Kysely<Database>, teamId: number): Promise<number> {
  const row = await db
    .selectFrom('ipps')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('group_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countMembers(db: Kysely<Database>, teamId: number) {
  const rows = await db
    .selectFrom('users')
    .select(['role', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('group_id', '=', teamId)
    .groupBy('role')
    .execute();
  const of = (role: string) => Number(rows.find((r) => r.role === role)?.n ?? 0);
  return {
    superadmins: of('superadmin'),
    admins: of('administrator'),
    users: of('user'),
    total: rows.reduce((a, r) => a + Number(r.n), 0),
  };
}
