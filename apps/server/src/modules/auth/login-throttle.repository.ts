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

/** Keeps one row under `key`, at `at` (a `known:` key: when the account last signed in from an address). */
export async function markOnce(db: Kysely<Database>, key: string, at: number) {
  await db.deleteFrom('login_failures').where('account', '=', key).execute();
  await db.insertInto('login_failures').values({ account: key, at }).execute();
}

/**
 * Old rows say nothing about the current window; dropped so the table stays small. `known:` rows (addresses an account
 * signed in from) are kept until `knownBefore`.
 */
export async function pruneFailures(db: Kysely<Database>, before: number, knownBefore: number) {
  await db
    .deleteFrom('login_failures')
    .where((eb) => eb.or([eb.and([eb('account', 'not like', 'known:%'), eb('at', '<=', before)]), eb('at', '<=', knownBefore)]))
    .execute();
}
