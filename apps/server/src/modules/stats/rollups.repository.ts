import { sizeClassOf } from '@ipp/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAY_MS, HOUR_MS, dayOf, hourOf } from './rollup-keys.ts';
import { keepExtreme } from './rollup-sql.repository.ts';
import { rebuildTrendDays } from './trend-rollups.repository.ts';

export { DAY_MS, HOUR_MS, dayOf, hourOf };
/** Rollup key of a class: its id, 0 = not classified. */
export const classKeyOf = (classId: number | null) => classId ?? 0;

/** One ROI entering (+1) or leaving (-1) the live counts at its station, class, group and capture time. */
export interface RoiDelta {
  ippId: number;
  classKey: number;
  kind: number;
  roiTime: number;
  delta: number;
  /** The measured object's biovolume, px³ (null: not measured), for the size rollups. */
  bvPx3: number | null;
}

/**
 * Adds `delta` ROIs (negative to remove) of one station and class at one time to the rollups. Called in the
 * same transaction as the change to the rois table, so the rollups never disagree with the rows.
 */
export async function bumpRoiRollups(
  trx: Kysely<Database>,
  dayOffsetHours: number,
  ippId: number,
  classKey: number,
  roiTime: number,
  delta: number,
  kind: number,
  bvPx3: number | null,
) {
  await applyRoiDeltas(trx, dayOffsetHours, [{ ippId, classKey, roiTime, delta, kind, bvPx3 }]);
}

const CHUNK = 200;

function compareKeys(a: readonly number[], b: readonly number[]) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Sums deltas by key, then one upsert per chunk of keys per table: a 10,000-ROI action costs a few statements. */
export async function applyRoiDeltas(trx: Kysely<Database>, dayOffsetHours: number, deltas: readonly RoiDelta[]) {
  const sums = {
    hour: new Map<string, number>(),
    count: new Map<string, number>(),
    day: new Map<string, number>(),
    totals: new Map<string, number>(),
    kinds: new Map<string, number>(),
  };
  const sizes = { hour: new Map<string, SizeSum>(), day: new Map<string, SizeSum>() };
  const addSize = (map: Map<string, SizeSum>, key: number[], n: number, bv: number) => {
    const k = key.join(':');
    const sum = map.get(k) ?? { key, n: 0, bv: 0 };
    sum.n += n;
    sum.bv += bv;
    map.set(k, sum);
  };
  const add = (map: Map<string, number>, key: (number | string)[], delta: number) => {
    const k = key.join(':');
    map.set(k, (map.get(k) ?? 0) + delta);
  };
  for (const d of deltas) {
    if (d.delta === 0) continue;
    add(sums.hour, [d.ippId, hourOf(d.roiTime), d.classKey], d.delta);
    add(sums.count, [d.ippId, hourOf(d.roiTime)], d.delta);
    add(sums.day, [d.ippId, dayOf(d.roiTime, dayOffsetHours), d.classKey], d.delta);
    add(sums.totals, [d.ippId, d.classKey], d.delta);
    add(sums.kinds, [d.ippId, d.kind, d.classKey], d.delta);
    const sizeClass = sizeClassOf(d.bvPx3);
    const bv = sizeClass === -1 ? 0 : d.bvPx3! * d.delta;
    addSize(sizes.hour, [d.ippId, hourOf(d.roiTime), d.classKey, sizeClass], d.delta, bv);
    addSize(sizes.day, [d.ippId, dayOf(d.roiTime, dayOffsetHours), d.classKey, sizeClass], d.delta, bv);
  }
  // In key order: concurrent transactions (PostgreSQL, several connections or processes) then update the same rollup
  // rows in the same order and wait for each other instead of deadlocking.
  const rows = (map: Map<string, number>) =>
    [...map]
      .filter(([, n]) => n !== 0)
      .map(([k, n]) => ({ key: k.split(':').map(Number), n }))
      .sort((a, b) => compareKeys(a.key, b.key));
  for (const part of chunks(rows(sums.hour))) {
    await trx
      .insertInto('roi_rollup_hour')
      .values(part.map(({ key: [ipp_id, hour, class_key], n }) => ({ ipp_id: ipp_id!, hour: hour!, class_key: class_key!, n })))
      .onConflict((oc) => oc.columns(['ipp_id', 'hour', 'class_key']).doUpdateSet({ n: sql`roi_rollup_hour.n + excluded.n` }))
      .execute();
  }
  for (const part of chunks(rows(sums.count))) {
    await trx
      .insertInto('roi_count_hour')
      .values(part.map(({ key: [ipp_id, hour], n }) => ({ ipp_id: ipp_id!, hour: hour!, n })))
      .onConflict((oc) => oc.columns(['ipp_id', 'hour']).doUpdateSet({ n: sql`roi_count_hour.n + excluded.n` }))
      .execute();
  }
  for (const part of chunks(rows(sums.day))) {
    await trx
      .insertInto('roi_rollup_day')
      .values(part.map(({ key: [ipp_id, day, class_key], n }) => ({ ipp_id: ipp_id!, day: day!, class_key: class_key!, n })))
      .onConflict((oc) => oc.columns(['ipp_id', 'day', 'class_key']).doUpdateSet({ n: sql`roi_rollup_day.n + excluded.n` }))
      .execute();
  }
  for (const part of chunks(rows(sums.totals))) {
    await trx
      .insertInto('roi_totals')
      .values(part.map(({ key: [ipp_id, class_key], n }) => ({ ipp_id: ipp_id!, class_key: class_key!, n })))
      .onConflict((oc) => oc.columns(['ipp_id', 'class_key']).doUpdateSet({ n: sql`roi_totals.n + excluded.n` }))
      .execute();
  }
  for (const part of chunks(rows(sums.kinds))) {
    await trx
      .insertInto('roi_class_counts')
      .values(part.map(({ key: [ipp_id, kind, class_key], n }) => ({ ipp_id: ipp_id!, kind: kind!, class_key: class_key!, n })))
      .onConflict((oc) => oc.columns(['ipp_id', 'kind', 'class_key']).doUpdateSet({ n: sql`roi_class_counts.n + excluded.n` }))
      .execute();
  }
  await applySizeSums(trx, 'roi_size_hour', 'hour', sizes.hour);
  await applySizeSums(trx, 'roi_size_day', 'day', sizes.day);
}

interface SizeSum {
  key: number[];
  n: number;
  bv: number;
}

/**
 * Count and biovolume deltas into a size rollup, in key order. A key whose count nets to zero still changes when its
 * biovolume does (an ROI measured again within the same size class).
 */
async function applySizeSums(
  trx: Kysely<Database>,
  table: 'roi_size_hour' | 'roi_size_day',
  time: 'hour' | 'day',
  sums: Map<string, SizeSum>,
) {
  const t = sql.raw(table);
  const changed = [...sums.values()].filter((s) => s.n !== 0 || s.bv !== 0).sort((a, b) => compareKeys(a.key, b.key));
  for (const part of chunks(changed)) {
    await (trx as unknown as Kysely<Pick<Database, 'roi_size_hour'>>)
      .insertInto(table as 'roi_size_hour')
      .values(
        part.map(({ key: [ipp_id, at, class_key, size_class], n, bv }) => ({
          ipp_id: ipp_id!,
          [time as 'hour']: at!,
          class_key: class_key!,
          size_class: size_class!,
          n,
          bv_px3: bv,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['ipp_id', time as 'hour', 'class_key', 'size_class']).doUpdateSet({
          n: sql`${t}.n + excluded.n`,
          // The last ROI leaving a key leaves exactly nothing, not a rounding residue.
          bv_px3: sql`case when ${t}.n + excluded.n = 0 then 0 else ${t}.bv_px3 + excluded.bv_px3 end`,
        }),
      )
      .execute();
  }
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

type TelemetryRollup = 'telemetry_rollup_hour' | 'telemetry_rollup_day';

/** Adds one telemetry sample (and the water sampled since the previous one) to its hour and its day. */
export async function addTelemetryRollup(
  trx: Kysely<Database>,
  dayOffsetHours: number,
  ippId: number,
  at: number,
  sample: { temperature_c: number | null; humidity_pct: number | null; volume_l: number },
) {
  const t = sample.temperature_c;
  const h = sample.humidity_pct;
  const values = {
    ipp_id: ippId,
    samples: 1,
    temp_n: t === null ? 0 : 1,
    temp_sum: t ?? 0,
    temp_min: t,
    temp_max: t,
    hum_n: h === null ? 0 : 1,
    hum_sum: h ?? 0,
    volume_l: sample.volume_l,
  };
  const merge = (table: TelemetryRollup) => {
    const r = sql.raw(table);
    return {
      samples: sql<number>`${r}.samples + 1`,
      temp_n: sql<number>`${r}.temp_n + excluded.temp_n`,
      temp_sum: sql<number>`${r}.temp_sum + excluded.temp_sum`,
      temp_min: keepExtreme(table, 'temp_min', '<'),
      temp_max: keepExtreme(table, 'temp_max', '>'),
      hum_n: sql<number>`${r}.hum_n + excluded.hum_n`,
      hum_sum: sql<number>`${r}.hum_sum + excluded.hum_sum`,
      volume_l: sql<number>`${r}.volume_l + excluded.volume_l`,
    };
  };
  await trx
    .insertInto('telemetry_rollup_hour')
    .values({ ...values, hour: hourOf(at) })
    .onConflict((oc) => oc.columns(['ipp_id', 'hour']).doUpdateSet(merge('telemetry_rollup_hour')))
    .execute();
  await trx
    .insertInto('telemetry_rollup_day')
    .values({ ...values, day: dayOf(at, dayOffsetHours) })
    .onConflict((oc) => oc.columns(['ipp_id', 'day']).doUpdateSet(merge('telemetry_rollup_day')))
    .execute();
}

/**
 * Makes the day rollups match the configured day offset: when it changed since they were built, they are
 * rebuilt from the hour rollups (exact for whole-hour offsets) in one transaction.
 */
export async function ensureDayRollups(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  offsetHours: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres')
      await sql`lock table roi_rollup_day, roi_size_day, telemetry_rollup_day, telemetry_trend_day in exclusive mode`.execute(
        trx,
      );
    const row = await trx.selectFrom('rollup_meta').select('value').where('key', '=', 'day_offset_hours').executeTakeFirst();
    if (row && Number(row.value) === offsetHours) return false;
    const offset = offsetHours * HOUR_MS;
    const day = sql<number>`((hour + ${sql.lit(offset)}) / ${sql.lit(DAY_MS)}) * ${sql.lit(DAY_MS)} - ${sql.lit(offset)}`;
    await trx.deleteFrom('roi_rollup_day').execute();
    await trx
      .insertInto('roi_rollup_day')
      .columns(['ipp_id', 'day', 'class_key', 'n'])
      .expression((eb) =>
        eb
          .selectFrom('roi_rollup_hour')
          .select(['ipp_id', day.as('day'), 'class_key', sql<number>`sum(n)`.as('n')])
          .groupBy(['ipp_id', day, 'class_key']),
      )
      .execute();
    await trx.deleteFrom('roi_size_day').execute();
    await trx
      .insertInto('roi_size_day')
      .columns(['ipp_id', 'day', 'class_key', 'size_class', 'n', 'bv_px3'])
      .expression((eb) =>
        eb
          .selectFrom('roi_size_hour')
          .select([
            'ipp_id',
            day.as('day'),
            'class_key',
            'size_class',
            sql<number>`sum(n)`.as('n'),
            sql<number>`sum(bv_px3)`.as('bv_px3'),
          ])
          .groupBy(['ipp_id', day, 'class_key', 'size_class']),
      )
      .execute();
    await trx.deleteFrom('telemetry_rollup_day').execute();
    await trx
      .insertInto('telemetry_rollup_day')
      .columns(['ipp_id', 'day', 'samples', 'temp_n', 'temp_sum', 'temp_min', 'temp_max', 'hum_n', 'hum_sum', 'volume_l'])
      .expression((eb) =>
        eb
          .selectFrom('telemetry_rollup_hour')
          .select((s) => [
            'ipp_id',
            day.as('day'),
            s.fn.sum<number>('samples').as('samples'),
            s.fn.sum<number>('temp_n').as('temp_n'),
            s.fn.sum<number>('temp_sum').as('temp_sum'),
            s.fn.min<number | null>('temp_min').as('temp_min'),
            s.fn.max<number | null>('temp_max').as('temp_max'),
            s.fn.sum<number>('hum_n').as('hum_n'),
            s.fn.sum<number>('hum_sum').as('hum_sum'),
            s.fn.sum<number>('volume_l').as('volume_l'),
          ])
          .groupBy(['ipp_id', day]),
      )
      .execute();
    await rebuildTrendDays(trx, offsetHours);
    await trx
      .insertInto('rollup_meta')
      .values({ key: 'day_offset_hours', value: String(offsetHours) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(offsetHours) }))
      .execute();
    return true;
  });
}

/** The statistics-day offset the day rollups were built with (0 before the first build; the next start rebuilds). */
export async function dayOffsetOfRollups(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('rollup_meta').select('value').where('key', '=', 'day_offset_hours').executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/** Litres of water a station sampled in [from, to) (hours of the telemetry rollups; null when it reported none). */
export async function sampledVolumeL(db: Kysely<Database>, ippId: number, from: number, to: number): Promise<number | null> {
  const row = await db
    .selectFrom('telemetry_rollup_hour')
    .select((eb) => [eb.fn.sum<number | string | null>('volume_l').as('v'), eb.fn.countAll<number | string>().as('n')])
    .where('ipp_id', '=', ippId)
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .executeTakeFirst();
  return row && Number(row.n) > 0 ? Number(row.v) : null;
}
