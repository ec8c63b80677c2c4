import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const hourOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
/** Rollup key of a class: its id, 0 = not classified. */
export const classKeyOf = (classId: number | null) => classId ?? 0;

/**
 * Adds `delta` ROIs (negative to remove) of one station and class at one time to the rollups. Called in the
 * same transaction as the change to the rois table, so the rollups never disagree with the rows.
 */
export async function bumpRoiRollups(trx: Kysely<Database>, ippId: number, classKey: number, roiTime: number, delta: number) {
  if (delta === 0) return;
  await trx
    .insertInto('roi_rollup_hour')
    .values({ ipp_id: ippId, hour: hourOf(roiTime), class_key: classKey, n: delta })
    .onConflict((oc) => oc.columns(['ipp_id', 'hour', 'class_key']).doUpdateSet({ n: sql`roi_rollup_hour.n + excluded.n` }))
    .execute();
  await trx
    .insertInto('roi_totals')
    .values({ ipp_id: ippId, class_key: classKey, n: delta })
    .onConflict((oc) => oc.columns(['ipp_id', 'class_key']).doUpdateSet({ n: sql`roi_totals.n + excluded.n` }))
    .execute();
}

const keepMin = (column: string) =>
  sql<number | null>`case when excluded.${sql.raw(column)} is null then telemetry_rollup_hour.${sql.raw(column)}
      when telemetry_rollup_hour.${sql.raw(column)} is null then excluded.${sql.raw(column)}
      when excluded.${sql.raw(column)} < telemetry_rollup_hour.${sql.raw(column)} then excluded.${sql.raw(column)}
      else telemetry_rollup_hour.${sql.raw(column)} end`;
const keepMax = (column: string) =>
  sql<number | null>`case when excluded.${sql.raw(column)} is null then telemetry_rollup_hour.${sql.raw(column)}
      when telemetry_rollup_hour.${sql.raw(column)} is null then excluded.${sql.raw(column)}
      when excluded.${sql.raw(column)} > telemetry_rollup_hour.${sql.raw(column)} then excluded.${sql.raw(column)}
      else telemetry_rollup_hour.${sql.raw(column)} end`;

/** Adds one telemetry sample (and the water sampled since the previous one) to its hour. */
export async function addTelemetryRollup(
  trx: Kysely<Database>,
  ippId: number,
  at: number,
  sample: { temperature_c: number | null; humidity_pct: number | null; volume_l: number },
) {
  const t = sample.temperature_c;
  const h = sample.humidity_pct;
  await trx
    .insertInto('telemetry_rollup_hour')
    .values({
      ipp_id: ippId,
      hour: hourOf(at),
      samples: 1,
      temp_n: t === null ? 0 : 1,
      temp_sum: t ?? 0,
      temp_min: t,
      temp_max: t,
      hum_n: h === null ? 0 : 1,
      hum_sum: h ?? 0,
      volume_l: sample.volume_l,
    })
    .onConflict((oc) =>
      oc.columns(['ipp_id', 'hour']).doUpdateSet({
        samples: sql`telemetry_rollup_hour.samples + 1`,
        temp_n: sql`telemetry_rollup_hour.temp_n + excluded.temp_n`,
        temp_sum: sql`telemetry_rollup_hour.temp_sum + excluded.temp_sum`,
        temp_min: keepMin('temp_min'),
        temp_max: keepMax('temp_max'),
        hum_n: sql`telemetry_rollup_hour.hum_n + excluded.hum_n`,
        hum_sum: sql`telemetry_rollup_hour.hum_sum + excluded.hum_sum`,
        volume_l: sql`telemetry_rollup_hour.volume_l + excluded.volume_l`,
      }),
    )
    .execute();
}
