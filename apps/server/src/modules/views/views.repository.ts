import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { STATION_COLUMNS } from '../access/access.repository.ts';
import { summaries } from '../rois/rois.repository.ts';

export function stationsOf(db: Kysely<Database>, groupId: number | undefined) {
  let query = db.selectFrom('ipps').select(STATION_COLUMNS);
  if (groupId !== undefined) query = query.where('group_id', '=', groupId);
  return query.orderBy('id').execute();
}

export async function countFavorites(db: Kysely<Database>, groupId: number | undefined) {
  let query = db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('r.favorite_at', 'is not', null)
    .where('r.deleted_at', 'is', null);
  if (groupId !== undefined) query = query.where('i.group_id', '=', groupId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

export function latestFavorites(db: Kysely<Database>, groupId: number | undefined, limit: number) {
  let query = summaries(db).where('r.favorite_at', 'is not', null).where('r.deleted_at', 'is', null);
  if (groupId !== undefined) query = query.where('i.group_id', '=', groupId);
  return query.orderBy('r.favorite_at', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
}

export function latestRois(db: Kysely<Database>, ippIds: number[], limit: number) {
  if (ippIds.length === 0) return Promise.resolve([]);
  return summaries(db)
    .where('r.ipp_id', 'in', ippIds)
    .where('r.deleted_at', 'is', null)
    .orderBy('r.roi_time', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The newest image of the visible stations: `at` is its capture time (Roi_time, what "latest image time" means to a
 * user), `received_at` when an ROI row was last written (what the overview polls to know something new arrived,
 * even a backlog of older images). One index walk per station on (ipp_id, roi_time).
 */
export async function lastInsertTime(db: Kysely<Database>, groupId: number | undefined) {
  let query = db
    .selectFrom('ipps as i')
    .select((eb) => [
      eb.fn.max<number | null>('i.last_roi_at').as('received_at'),
      eb.fn
        .max<number | null>(
          eb
            .selectFrom('rois as r')
            .select('r.roi_time')
            .whereRef('r.ipp_id', '=', 'i.id')
            .where('r.deleted_at', 'is', null)
            .orderBy('r.roi_time', 'desc')
            .limit(1),
        )
        .as('at'),
    ]);
  if (groupId !== undefined) query = query.where('i.group_id', '=', groupId);
  const row = await query.executeTakeFirst();
  const num = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value));
  return { at: num(row?.at), received_at: num(row?.received_at) };
}
