import { TREND_SERIES, type Measured } from '@ipp/contracts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAY_MS, HOUR_MS, dayOf, hourOf } from './rollup-keys.ts';
import { keepExtreme } from './rollup-sql.repository.ts';
import type { BucketRange } from './stats.repository.ts';

/**
 * The engineering-trend rollups (issue 23, migration 0019): per station and hour (and statistics day) the telemetry
 * samples, the wiper's cleaning and fault reports, and count / sum / min / max of each series of TREND_SERIES.
 */
type TrendTable = 'telemetry_trend_hour' | 'telemetry_trend_day';

const SUFFIXES = ['n', 'sum', 'min', 'max'] as const;
const COLUMNS = TREND_SERIES.flatMap((s) => SUFFIXES.map((x) => `${s}_${x}`));

/** The row one sample adds: 1 sample, and for each series reported n = 1 and its value as sum, min and max. */
function rowOf(sample: Partial<Measured>): Record<string, number | null> {
  const row: Record<string, number | null> = {
    samples: 1,
    wiper_cleaning_n: sample.wiper_state === 'cleaning' ? 1 : 0,
    wiper_fault_n: sample.wiper_state === 'fault' ? 1 : 0,
  };
  for (const s of TREND_SERIES) {
    const v = sample[s];
    const value = typeof v === 'number' && Number.isFinite(v) ? v : null;
    row[`${s}_n`] = value === null ? 0 : 1;
    row[`${s}_sum`] = value ?? 0;
    row[`${s}_min`] = value;
    row[`${s}_max`] = value;
  }
  return row;
}

function mergeOf(table: TrendTable): Record<string, RawBuilder<unknown>> {
  const t = sql.raw(table);
  const add = (column: string) => sql`${t}.${sql.raw(column)} + excluded.${sql.raw(column)}`;
  const set: Record<string, RawBuilder<unknown>> = {
    samples: add('samples'),
    wiper_cleaning_n: add('wiper_cleaning_n'),
    wiper_fault_n: add('wiper_fault_n'),
  };
  for (const s of TREND_SERIES) {
    set[`${s}_n`] = add(`${s}_n`);
    set[`${s}_sum`] = add(`${s}_sum`);
    set[`${s}_min`] = keepExtreme(table, `${s}_min`, '<');
    set[`${s}_max`] = keepExtreme(table, `${s}_max`, '>');
  }
  return set;
}

/** Adds one telemetry sample to its hour and its statistics day (in the transaction that stores the sample). */
export async function addTrendRollup(
  trx: Kysely<Database>,
  dayOffsetHours: number,
  ippId: number,
  at: number,
  sample: Partial<Measured>,
) {
  const row = { ...rowOf(sample), ipp_id: ippId };
  // The columns are generated from TREND_SERIES, so the row is typed by the schema's mapped type only as a whole.
  await trx
    .insertInto('telemetry_trend_hour')
    .values({ ...row, hour: hourOf(at) } as never)
    .onConflict((oc) => oc.columns(['ipp_id', 'hour']).doUpdateSet(mergeOf('telemetry_trend_hour') as never))
    .execute();
  await trx
    .insertInto('telemetry_trend_day')
    .values({ ...row, day: dayOf(at, dayOffsetHours) } as never)
    .onConflict((oc) => oc.columns(['ipp_id', 'day']).doUpdateSet(mergeOf('telemetry_trend_day') as never))
    .execute();
}

/** Rebuilds the day rows from the hour rows at a new statistics-day offset (inside ensureDayRollups' transaction). */
export async function rebuildTrendDays(trx: Kysely<Database>, offsetHours: number) {
  const offset = offsetHours * HOUR_MS;
  const day = sql`((hour + ${sql.lit(offset)}) / ${sql.lit(DAY_MS)}) * ${sql.lit(DAY_MS)} - ${sql.lit(offset)}`;
  const sums = TREND_SERIES.map(
    (s) => sql`sum(${sql.ref(`${s}_n`)}), sum(${sql.ref(`${s}_sum`)}), min(${sql.ref(`${s}_min`)}), max(${sql.ref(`${s}_max`)})`,
  );
  await trx.deleteFrom('telemetry_trend_day').execute();
  await sql`insert into telemetry_trend_day (ipp_id, day, samples, wiper_cleaning_n, wiper_fault_n, ${sql.join(COLUMNS.map((c) => sql.ref(c)))})
    select ipp_id, ${day}, sum(samples), sum(wiper_cleaning_n), sum(wiper_fault_n), ${sql.join(sums)}
    from telemetry_trend_hour group by ipp_id, ${day}`.execute(trx);
}

export interface TrendBucketRow {
  bucket: number;
  samples: number;
  wiper_cleaning_n: number;
  wiper_fault_n: number;
  /** Per series: [n, sum, min, max]. */
  series: Record<string, [number, number, number | null, number | null]>;
}

/** One station's trend rollups summed per bucket of `range`: at most `range.count` rows. */
export async function trendsByBucket(db: Kysely<Database>, ippId: number, range: BucketRange): Promise<TrendBucketRow[]> {
  const time = range.grain === 'day' ? 'day' : 'hour';
  const table = sql.raw(range.grain === 'day' ? 'telemetry_trend_day' : 'telemetry_trend_hour');
  // Literals, not parameters: PostgreSQL matches GROUP BY expressions to SELECT expressions textually.
  const bucket = sql`(${sql.ref(time)} - ${sql.lit(Math.trunc(range.start))}) / ${sql.lit(Math.trunc(range.width))}`;
  const aggregates = TREND_SERIES.map(
    (s) =>
      sql`sum(${sql.ref(`${s}_n`)}) as ${sql.ref(`${s}_n`)}, sum(${sql.ref(`${s}_sum`)}) as ${sql.ref(`${s}_sum`)},
        min(${sql.ref(`${s}_min`)}) as ${sql.ref(`${s}_min`)}, max(${sql.ref(`${s}_max`)}) as ${sql.ref(`${s}_max`)}`,
  );
  const { rows } = await sql<Record<string, number | string | null>>`
    select ${bucket} as bucket, sum(samples) as samples, sum(wiper_cleaning_n) as wiper_cleaning_n,
      sum(wiper_fault_n) as wiper_fault_n, ${sql.join(aggregates)}
    from ${table}
    where ipp_id = ${ippId} and ${sql.ref(time)} >= ${range.start} and ${sql.ref(time)} < ${range.end}
    group by ${bucket}`.execute(db);
  const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => {
    const series: TrendBucketRow['series'] = {};
    for (const s of TREND_SERIES)
      series[s] = [num(r[`${s}_n`]) ?? 0, num(r[`${s}_sum`]) ?? 0, num(r[`${s}_min`]), num(r[`${s}_max`])];
    return {
      bucket: Number(r.bucket),
      samples: Number(r.samples),
      wiper_cleaning_n: Number(r.wiper_cleaning_n),
      wiper_fault_n: Number(r.wiper_fault_n),
      series,
    };
  });
}
