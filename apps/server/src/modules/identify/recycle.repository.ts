import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** PostgreSQL only: takes the advisory lock `key` until the transaction ends; false when another holds it. */
export async function tryTransactionLock(db: Kysely<Database>, key: number): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${key}) as ok`.execute(db);
  return rows[0]?.ok ?? false;
}

/** Ids of up to `limit` ROIs put in the recycle bin before `before`. */
export async function recycledBefore(db: Kysely<Database>, before: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('rois')
    .select('id')
    .where('deleted_at', 'is not', null)
    .where('deleted_at', '<', before)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
