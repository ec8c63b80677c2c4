import type { Kysely, Selectable } from 'kysely';
import { idChunks } from '../../db/query-helpers.ts';
import type { Database, SessionsTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionsTable>;

export function findSessionByTokenHash(db: Kysely<Database>, tokenHash: string) {
  return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function insertSession(db: Kysely<Database>, userId: number, tokenHash: string, now: number) {
  await db
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: tokenHash, created_at: now, last_seen_at: now, ended_at: null, end_reason: null })
    .execute();
}

/** Ends every open session of a user, but the one to keep if given (sign-in displaces; password and role changes revoke). */
export async function endOpenSessionsOfUser(
  db: Kysely<Database>,
  userId: number,
  now: number,
  reason: string,
  keepSessionId?: number,
) {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: now, end_reason: reason })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
  await query.execute();
}

export async function endSession(db: Kysely<Database>, id: number, now: number, reason: string) {
  await db
    .updateTable('sessions')
    .set({ ended_at: now, end_reason: reason })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

export async function touchSession(db: Kysely<Database>, id: number, now: number) {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

/** Of these sessions, the ids of those still open and created after `createdAfter` (the live streams' sweep). */
export async function openSessionIds(db: Kysely<Database>, ids: readonly number[], createdAfter: number): Promise<Set<number>> {
  const open = new Set<number>();
  for (const chunk of idChunks(ids)) {
    const rows = await db
      .selectFrom('sessions')
      .select('id')
      .where('id', 'in', chunk)
      .where('ended_at', 'is', null)
      .where('created_at', '>', createdAfter)
      .execute();
    for (const row of rows) open.add(row.id);
  }
  return open;
}
