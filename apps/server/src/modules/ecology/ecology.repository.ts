import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BucketRange } from '../stats/stats.repository.ts';

// The day table is typed as the hour one with its time column renamed in SQL (as stats.repository does).
const sizeTable = (range: BucketRange) => (range.grain === 'day' ? 'roi_size_day' : 'roi_size_hour') as 'roi_size_hour';
const timeOf = (range: BucketRange) => sql.ref<number>(range.grain === 'day' ? 'day' : 'hour') as unknown as 'hour';
// Literals, not parameters: PostgreSQL matches GROUP BY expressions to SELECT expressions textually.
const bucketOf = (range: BucketRange) =>
  sql<number>`(${sql.ref(range.grain === 'day' ? 'day' : 'hour')} - ${sql.lit(Math.trunc(range.start))}) / ${sql.lit(Math.trunc(range.width))}`;
const measuredN = sql<number | string>`sum(case when size_class >= 0 then n else 0 end)`;

/** Per time bucket and class: live ROIs, those measured, and their biovolume (px³), from the size rollups. */
export async function sizesByBucketAndClass(db: Kysely<Database>, ippId: number, range: BucketRange) {
  const bucket = bucketOf(range);
  const rows = await db
    .selectFrom(sizeTable(range))
    .select((eb) => [
      bucket.as('bucket'),
      'class_key',
      eb.fn.sum<number | string>('n').as('n'),
      measuredN.as('measured'),
      eb.fn.sum<number | string>('bv_px3').as('bv'),
    ])
    .where('ipp_id', '=', ippId)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy([bucket, 'class_key'])
    .execute();
  return rows.map((r) => ({
    bucket: Number(r.bucket),
    class_key: r.class_key,
    n: Number(r.n),
    measured: Number(r.measured),
    bv_px3: Number(r.bv),
  }));
}

/** Per class and size class over the whole range: live ROIs and their biovolume (px³). */
export async function sizesByClassAndSizeClass(db: Kysely<Database>, ippId: number, range: BucketRange) {
  const rows = await db
    .selectFrom(sizeTable(range))
    .select((eb) => [
      'class_key',
      'size_class',
      eb.fn.sum<number | string>('n').as('n'),
      eb.fn.sum<number | string>('bv_px3').as('bv'),
    ])
    .where('ipp_id', '=', ippId)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy(['class_key', 'size_class'])
    .execute();
  return rows
    .map((r) => ({ class_key: r.class_key, size_class: r.size_class, n: Number(r.n), bv_px3: Number(r.bv) }))
    .filter((r) => r.n > 0);
}

export async function classNamesOf(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('classes').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
