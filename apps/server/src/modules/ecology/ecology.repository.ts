import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BucketRange } from '../stats/stats.repository.ts';

// The day table is typed as the hour one with its time column renamed in SQL (as stats.repository does).
const sizeTable = (range: BucketRange) => (range.grain === 'day' ? 'roi_size_day' : 'roi_size_hour') as 'roi_size_hour';
const timeOf = (range: BucketRange) => sql.ref<number>(range.grain === 'day' ? 'day' : 'hour') as unknown as 'hour';
// Literals, not parameters: PostgreSQL matches GROUP BY expressions to SELECT expressions textually.
const bucketOf = (range: BucketRange) =>
  sql<number>`(${sql.ref(range.grain === 'day' ? 'day' : 'hour')} - ${sql.lit(Math.trunc(range.start))}) / ${sql.lit(Math.trunc(range.width))}`;

/**
 * Live ROIs and their biovolume (px³) per time bucket, class and size class over the range, from the size rollups:
 * one read answers both the series (summed over size classes) and the NBSS (summed over buckets).
 */
export async function sizesByBucket(db: Kysely<Database>, ippId: number, range: BucketRange) {
  const bucket = bucketOf(range);
  const rows = await db
    .selectFrom(sizeTable(range))
    .select((eb) => [
      bucket.as('bucket'),
      'class_key',
      'size_class',
      eb.fn.sum<number | string>('n').as('n'),
      eb.fn.sum<number | string>('bv_px3').as('bv'),
    ])
    .where('ipp_id', '=', ippId)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy([bucket, 'class_key', 'size_class'])
    .execute();
  return rows
    .map((r) => ({
      bucket: Number(r.bucket),
      class_key: r.class_key,
      size_class: r.size_class,
      n: Number(r.n),
      bv_px3: Number(r.bv),
    }))
    .filter((r) => r.n > 0);
}

export async function classNamesOf(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('classes').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
