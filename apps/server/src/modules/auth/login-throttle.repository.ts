import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function recentFailures(db: Kysely<Database>, account: string, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('login_failures')
    .select('at')
    .where('account', '=', account)
    .where('at', '>', since)
    .orderBy('at', 'asc')
    .execute();
  return rows.map((r) => Number(r.at));
}

export async function recordFailure(db: Kysely<Database>, account: string, at: number) {
  await db.insertInto('login_failures').values({ account, at }).execute();
}

export async function clearFailures(db: Kysely<Database>, account: string) {
  await db.deleteFrom('login_failures').where('account', '=', account).execute();
}

/** Old rows say nothing about the current window; dropped so the table stays small. */
export async function pruneFailures(db: Kysely<Database>, before: number) {
  await db.deleteFrom('login_failures').where('at', '<=', before).execute();
}
