import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** What an export writes of a station: its position, pixel size and team (for the team's taxa). */
export function findExportStation(k: Kysely<Database>, id: number) {
  return k
    .selectFrom('ipps')
    .select(['latitude', 'longitude', 'pixel_size_um', 'group_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The users of a team, to find an annotator by e-mail, name or account. */
export function teamUsers(k: Kysely<Database>, team: number) {
  return k.selectFrom('users').select(['id', 'account', 'name', 'email']).where('group_id', '=', team).execute();
}

/** The class an ROI carries now (id and name; both null when it has none). */
export function findRoiClass(k: Kysely<Database>, roiId: number) {
  return k
    .selectFrom('rois as r')
    .leftJoin('classes as c', 'c.id', 'r.class_id')
    .select(['r.class_id', 'c.name'])
    .where('r.id', '=', roiId)
    .executeTakeFirst();
}

/**
 * Takes the PostgreSQL advisory lock `key` until the transaction `trx` ends (only on PostgreSQL: SQLite writes one
 * transaction at a time).
 */
export async function lockForTransaction(trx: Kysely<Database>, key: number) {
  await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
}

/** Which of the ROIs (at most one chunk of ids) are not in the recycle bin. */
export function liveRoiIds(trx: Kysely<Database>, ids: number[]) {
  return trx.selectFrom('rois').select('id').where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}
