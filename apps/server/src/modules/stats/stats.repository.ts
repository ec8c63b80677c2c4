import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAY_MS, HOUR_MS, dayOf } from './rollups.repository.ts';

/**
 * Statistics, read from the rollup tables only (never from rois). A bucket is `width` ms from `start`;
 * the bucket index is computed in SQL so at most buckets × stations (× classes) rows come back.
 */
export interface BucketRange {
  start: number;
  end: number;
  width: number;
  /** Which rollups answer: days when the buckets are whole statistics days, else hours. */
  grain: 'hour' | 'day';
}

// Both grains share a shape; the day tables are typed as the hour ones with their time column renamed in SQL.
const roiTable = (range: BucketRange) => (range.grain === 'day' ? 'roi_rollup_day' : 'roi_rollup_hour') as 'roi_rollup_hour';
const telemetryTable = (range: BucketRange) =>
  (range.grain === 'day' ? 'telemetry_rollup_day' : 'telemetry_rollup_hour') as 'telemetry_rollup_hour';
const timeOf = (range: BucketRange) => sql.ref<number>(range.grain === 'day' ? 'day' : 'hour') as unknown as 'hour';

// Literals, not parameters: PostgreSQL matches GROUP BY expressions to SELECT expressions textually.
const bucketOf = (range: BucketRange) =>
  sql<number>`(${sql.ref(range.grain === 'day' ? 'day' : 'hour')} - ${sql.lit(Math.trunc(range.start))}) / ${sql.lit(Math.trunc(range.width))}`;

/** ROIs per station and bucket: hour buckets from the class-less hour counts, day buckets from the day rollups. */
export async function roiCountsByBucket(db: Kysely<Database>, ippIds: number[], range: BucketRange) {
  if (ippIds.length === 0) return [];
  const bucket = bucketOf(range);
  const rows = await db
    .selectFrom((range.grain === 'day' ? 'roi_rollup_day' : 'roi_count_hour') as 'roi_rollup_hour')
    .select((eb) => ['ipp_id', bucket.as('bucket'), eb.fn.sum<number | string>('n').as('n')])
    .where('ipp_id', 'in', ippIds)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy(['ipp_id', bucket])
    .execute();
  return rows.map((r) => ({ ipp_id: r.ipp_id, bucket: Number(r.bucket), n: Number(r.n) }));
}

export async function roiCountsByBucketAndClass(db: Kysely<Database>, ippId: number, range: BucketRange) {
  const bucket = bucketOf(range);
  const rows = await db
    .selectFrom(roiTable(range))
    .select((eb) => [bucket.as('bucket'), 'class_key', eb.fn.sum<number | string>('n').as('n')])
    .where('ipp_id', '=', ippId)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy([bucket, 'class_key'])
    .execute();
  return rows.map((r) => ({ bucket: Number(r.bucket), class_key: r.class_key, n: Number(r.n) }));
}

/**
 * ROIs per class over [from, to): whole statistics days from the day rollups, the partial days at either end from
 * the hour rollups, so the rows read depend on the days and classes, not on how busy the hours were.
 */
export async function classCountsBetween(
  db: Kysely<Database>,
  ippIds: number[],
  from: number,
  to: number,
  dayOffsetHours: number,
) {
  const firstDay = dayOf(from, dayOffsetHours) === from ? from : dayOf(from, dayOffsetHours) + DAY_MS;
  const lastDay = dayOf(to, dayOffsetHours);
  if (firstDay >= lastDay) return classCounts(db, ippIds, { start: from, end: to, width: to - from, grain: 'hour' });
  const parts = await Promise.all([
    classCounts(db, ippIds, { start: firstDay, end: lastDay, width: DAY_MS, grain: 'day' }),
    from < firstDay ? classCounts(db, ippIds, { start: from, end: firstDay, width: HOUR_MS, grain: 'hour' }) : [],
    lastDay < to ? classCounts(db, ippIds, { start: lastDay, end: to, width: HOUR_MS, grain: 'hour' }) : [],
  ]);
  const merged = new Map<number | null, { class_id: number | null; name: string | null; count: number }>();
  for (const row of parts.flat()) {
    const known = merged.get(row.class_id);
    if (known) known.count += row.count;
    else merged.set(row.class_id, { ...row });
  }
  return [...merged.values()].sort(byCountThenClass);
}

export async function classCounts(db: Kysely<Database>, ippIds: number[], range: BucketRange) {
  if (ippIds.length === 0) return [];
  const rows = await db
    .selectFrom(`${roiTable(range)} as r` as 'roi_rollup_hour as r')
    .leftJoin('classes as c', 'c.id', 'r.class_key')
    .select((eb) => ['r.class_key', 'c.name', eb.fn.sum<number | string>('r.n').as('n')])
    .where('r.ipp_id', 'in', ippIds)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy(['r.class_key', 'c.name'])
    .execute();
  return rows
    .map((r) => ({ class_id: r.class_key === 0 ? null : r.class_key, name: r.name ?? null, count: Number(r.n) }))
    .filter((r) => r.count > 0)
    .sort(byCountThenClass);
}

export async function telemetryByBucket(db: Kysely<Database>, ippIds: number[], range: BucketRange) {
  if (ippIds.length === 0) return [];
  const bucket = bucketOf(range);
  const rows = await db
    .selectFrom(telemetryTable(range))
    .select((eb) => [
      'ipp_id',
      bucket.as('bucket'),
      eb.fn.sum<number | string>('temp_n').as('temp_n'),
      eb.fn.sum<number | string>('temp_sum').as('temp_sum'),
      eb.fn.min<number | null>('temp_min').as('temp_min'),
      eb.fn.max<number | null>('temp_max').as('temp_max'),
      eb.fn.sum<number | string>('hum_n').as('hum_n'),
      eb.fn.sum<number | string>('hum_sum').as('hum_sum'),
      eb.fn.sum<number | string>('volume_l').as('volume_l'),
    ])
    .where('ipp_id', 'in', ippIds)
    .where(timeOf(range), '>=', range.start)
    .where(timeOf(range), '<', range.end)
    .groupBy(['ipp_id', bucket])
    .execute();
  return rows.map((r) => {
    const tempN = Number(r.temp_n);
    const humN = Number(r.hum_n);
    return {
      ipp_id: r.ipp_id,
      bucket: Number(r.bucket),
      temperature_c: tempN > 0 ? Number(r.temp_sum) / tempN : null,
      temperature_min_c: r.temp_min === null ? null : Number(r.temp_min),
      temperature_max_c: r.temp_max === null ? null : Number(r.temp_max),
      humidity_pct: humN > 0 ? Number(r.hum_sum) / humN : null,
      volume_l: Number(r.volume_l),
    };
  });
}

/** Images per station: in total, and since a time (today). */
export async function imageTotals(db: Kysely<Database>, ippIds: number[], since: number) {
  if (ippIds.length === 0) return new Map<number, { total: number; since: number }>();
  const [totals, recent] = await Promise.all([
    db
      .selectFrom('roi_totals')
      .select((eb) => ['ipp_id', eb.fn.sum<number | string>('n').as('n')])
      .where('ipp_id', 'in', ippIds)
      .groupBy('ipp_id')
      .execute(),
    db
      .selectFrom('roi_rollup_hour')
      .select((eb) => ['ipp_id', eb.fn.sum<number | string>('n').as('n')])
      .where('ipp_id', 'in', ippIds)
      .where('hour', '>=', since)
      .groupBy('ipp_id')
      .execute(),
  ]);
  const out = new Map(ippIds.map((id) => [id, { total: 0, since: 0 }]));
  for (const r of totals) out.get(r.ipp_id)!.total = Number(r.n);
  for (const r of recent) out.get(r.ipp_id)!.since = Number(r.n);
  return out;
}

/** The first hour with any data of a station (for the "all" period). */
export async function firstDataHour(db: Kysely<Database>, ippId: number): Promise<number | null> {
  const [rois, telemetry] = await Promise.all([
    db
      .selectFrom('roi_rollup_hour')
      .select((eb) => eb.fn.min<number | null>('hour').as('h'))
      .where('ipp_id', '=', ippId)
      .executeTakeFirst(),
    db
      .selectFrom('telemetry_rollup_hour')
      .select((eb) => eb.fn.min<number | null>('hour').as('h'))
      .where('ipp_id', '=', ippId)
      .executeTakeFirst(),
  ]);
  const hours = [rois?.h, telemetry?.h].filter((h): h is number => h !== null && h !== undefined).map(Number);
  return hours.length ? Math.min(...hours) : null;
}

/** Largest first; ties by class id, "not classified" last, so answers are stable. */
export function byCountThenClass(a: { count: number; class_id: number | null }, b: { count: number; class_id: number | null }) {
  return b.count - a.count || (a.class_id ?? Number.MAX_SAFE_INTEGER) - (b.class_id ?? Number.MAX_SAFE_INTEGER);
}
