import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface ClassCountRow {
  ipp_id: number;
  kind: number;
  class_key: number;
  n: number;
}

/** Live ROIs per recognition group and class of some stations (maintained counts: no ROI scan). */
export async function groupClassCounts(db: Kysely<Database>, ippIds: readonly number[]): Promise<ClassCountRow[]> {
  if (ippIds.length === 0) return [];
  const rows = await db
    .selectFrom('roi_class_counts')
    .select(['ipp_id', 'kind', 'class_key', 'n'])
    .where('ipp_id', 'in', ippIds)
    .where('n', '!=', 0)
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** Live ROIs of some stations (null: all), optionally of one recognition group and class, from the maintained counts. */
export async function maintainedTotal(db: Kysely<Database>, ippIds: readonly number[] | null, kind?: number, classKey?: number) {
  if (ippIds !== null && ippIds.length === 0) return 0;
  let q = db.selectFrom('roi_class_counts').select((eb) => eb.fn.sum<number | string | null>('n').as('n'));
  if (ippIds !== null) q = q.where('ipp_id', 'in', ippIds);
  if (kind !== undefined) q = q.where('kind', '=', kind);
  if (classKey !== undefined) q = q.where('class_key', '=', classKey);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/**
 * Live ROIs of stations (and one class) captured in the whole UTC hours of [from, to) (open ends unbounded), from the
 * hour rollups: exact at any size, as ingest and every state change keep them in the same transaction as the rows.
 */
export async function hourRollupTotal(
  db: Kysely<Database>,
  ippIds: readonly number[] | null,
  range: { from?: number; to?: number },
  classKey?: number,
) {
  if (ippIds !== null && ippIds.length === 0) return 0;
  if (classKey === undefined) {
    let q = db.selectFrom('roi_count_hour').select((eb) => eb.fn.sum<number | string | null>('n').as('n'));
    if (ippIds !== null) q = q.where('ipp_id', 'in', ippIds);
    if (range.from !== undefined) q = q.where('hour', '>=', range.from);
    if (range.to !== undefined) q = q.where('hour', '<', range.to);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }
  let q = db
    .selectFrom('roi_rollup_hour')
    .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
    .where('class_key', '=', classKey);
  if (ippIds !== null) q = q.where('ipp_id', 'in', ippIds);
  if (range.from !== undefined) q = q.where('hour', '>=', range.from);
  if (range.to !== undefined) q = q.where('hour', '<', range.to);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** Live ROIs per station and class (the statistics totals, also maintained). */
export async function stationClassCounts(db: Kysely<Database>, ippIds: readonly number[] | null) {
  let q = db.selectFrom('roi_totals').select(['ipp_id', 'class_key', 'n']).where('n', '!=', 0);
  if (ippIds !== null) {
    if (ippIds.length === 0) return [];
    q = q.where('ipp_id', 'in', ippIds);
  }
  return (await q.execute()).map((r) => ({ ...r, n: Number(r.n) }));
}

export type Subset = 'favorite' | 'review' | 'reviewed' | 'recycle';

/** ROIs per class in the favourites, the review queue or the recycle bin: small sets, counted from their index. */
export async function subsetClassCounts(db: Kysely<Database>, subset: Subset, ippIds: readonly number[] | null) {
  let q = db
    .selectFrom('rois as r')
    .select([sql<number>`coalesce(r.class_id, 0)`.as('class_key'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(sql`coalesce(r.class_id, 0)`);
  if (subset === 'recycle') q = q.where('r.deleted_at', 'is not', null);
  else q = q.where('r.deleted_at', 'is', null);
  if (subset === 'favorite') q = q.where('r.favorite_at', 'is not', null);
  if (subset === 'review') q = q.where('r.review_status', '=', 1);
  if (subset === 'reviewed') q = q.where('r.review_status', 'in', [2, 3]);
  if (ippIds !== null) {
    if (ippIds.length === 0) return [];
    q = q.where('r.ipp_id', 'in', ippIds);
  }
  return (await q.execute()).map((r) => ({ class_key: Number(r.class_key), n: Number(r.n) }));
}

export function stationsOfTeam(db: Kysely<Database>, groupId: number | undefined) {
  let q = db.selectFrom('ipps').select(['id', 'dev_id', 'site_name', 'group_id']);
  if (groupId !== undefined) q = q.where('group_id', '=', groupId);
  return q.orderBy('dev_id').execute();
}
