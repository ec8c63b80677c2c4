import type { Kysely } from 'kysely';
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
