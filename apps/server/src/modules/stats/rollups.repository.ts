import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const hourOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
/** Start of the statistics day holding `time`, for days starting at UTC+offsetHours. */
export const dayOf = (time: number, offsetHours: number) => {
  const offset = offsetHours * HOUR_MS;
  return Math.floor((time + offset) / DAY_MS) * DAY_MS - offset;
};
/** Rollup key of a class: its id, 0 = not classified. */
export const classKeyOf = (classId: number | null) => classId ?? 0;

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
) {
  if (delta === 0) return;
  await trx
    .insertInto('roi_rollup_hour')
    .values({ ipp_id: ippId, hour: hourOf(roiTime), class_key: classKey, n: delta })
    .onConflict((oc) => oc.columns(['ipp_id', 'hour', 'class_key']).doUpdateSet({ n: sql`roi_rollup_hour.n + excluded.n` }))
    .execute();
  await trx
    .insertInto('roi_count_hour')
    .values({ ipp_id: ippId, hour: hourOf(roiTime), n: delta })
    .onConflict((oc) => oc.columns(['ipp_id', 'hour']).doUpdateSet({ n: sql`roi_count_hour.n + excluded.n` }))
    .execute();
  await trx
    .insertInto('roi_rollup_day')
    .values({ ipp_id: ippId, day: dayOf(roiTime, dayOffsetHours), class_key: classKey, n: delta })
    .onConflict((oc) => oc.columns(['ipp_id', 'day', 'class_key']).doUpdateSet({ n: sql`roi_rollup_day.n + excluded.n` }))
    .execute();
  await trx
    .insertInto('roi_totals')
    .values({ ipp_id: ippId, class_key: classKey, n: delta })
    .onConflict((oc) => oc.columns(['ipp_id', 'class_key']).doUpdateSet({ n: sql`roi_totals.n + excluded.n` }))
    .execute();
}

type TelemetryRollup = 'telemetry_rollup_hour' | 'telemetry_rollup_day';

const keepMin = (table: TelemetryRollup, column: string) => {
  const [t, c] = [sql.raw(table), sql.raw(column)];
  return sql<number | null>`case when excluded.${c} is null then ${t}.${c} when ${t}.${c} is null then excluded.${c}
      when excluded.${c} < ${t}.${c} then excluded.${c} else ${t}.${c} end`;
};
const keepMax = (table: TelemetryRollup, column: string) => {
  const [t, c] = [sql.raw(table), sql.raw(column)];
  return sql<number | null>`case when excluded.${c} is null then ${t}.${c} when ${t}.${c} is null then excluded.${c}
      when excluded.${c} > ${t}.${c} then excluded.${c} else ${t}.${c} end`;
};

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
      temp_min: keepMin(table, 'temp_min'),
      temp_max: keepMax(table, 'temp_max'),
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
    if (dialect === 'postgres') await sql`lock table roi_rollup_day, telemetry_rollup_day in exclusive mode`.execute(trx);
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
    await trx
      .insertInto('rollup_meta')
      .values({ key: 'day_offset_hours', value: String(offsetHours) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(offsetHours) }))
      .execute();
    return true;
  });
}
