import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { atomically } from './column-types.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The numeric series as they were when this migration was written (a later list adds its own migration). */
const SERIES = [
  'temperature_c',
  'humidity_pct',
  'cpu_temp_c',
  'gpu_temp_c',
  'ram_mb',
  'storage_gb',
  'lp_current_a',
  'lp_voltage_v',
  'lp_temperature_c',
  'cb_current_a',
  'cb_voltage_v',
  'uvc_port_frequency_hz',
  'uvc_port_duty_pct',
  'uvc_illuminator_frequency_hz',
  'uvc_illuminator_duty_pct',
  'uvc_voltage_v',
  'uvc_current_a',
  'wiper_clean_count',
  'volume_5min_ml',
];

/**
 * Engineering trends (issue 23): per station and hour (and statistics day), the number of telemetry samples, how
 * many reported the wiper cleaning or in fault, and for each numeric series its count, sum, minimum and maximum.
 * One wide row per station and hour: a sample updates one row per grain, a chart reads one row per bucket. Existing
 * telemetry is rolled up here.
 */
export function telemetryTrendsMigration(dialect: DialectName) {
  return {
    up: (outer: Kysely<unknown>) =>
      atomically(outer, dialect, async (db) => {
        for (const [table, time] of [
          ['telemetry_trend_hour', 'hour'],
          ['telemetry_trend_day', 'day'],
        ] as const) {
          let create = db.schema
            .createTable(table)
            .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
            .addColumn(time, 'bigint', (c) => c.notNull())
            .addColumn('samples', 'integer', (c) => c.notNull())
            .addColumn('wiper_cleaning_n', 'integer', (c) => c.notNull())
            .addColumn('wiper_fault_n', 'integer', (c) => c.notNull());
          for (const s of SERIES)
            create = create
              .addColumn(`${s}_n`, 'integer', (c) => c.notNull())
              .addColumn(`${s}_sum`, 'double precision', (c) => c.notNull())
              .addColumn(`${s}_min`, 'double precision')
              .addColumn(`${s}_max`, 'double precision');
          create = create.addPrimaryKeyConstraint(`${table}_pk`, ['ipp_id', time]);
          await (dialect === 'sqlite' ? create.modifyEnd(sql`without rowid`) : create).execute();
        }
        const aggregates = SERIES.map(
          (s) => sql`count(${sql.ref(s)}), coalesce(sum(${sql.ref(s)}), 0), min(${sql.ref(s)}), max(${sql.ref(s)})`,
        );
        const columns = SERIES.flatMap((s) => [`${s}_n`, `${s}_sum`, `${s}_min`, `${s}_max`]);
        const hour = sql`(at / ${sql.lit(HOUR_MS)}) * ${sql.lit(HOUR_MS)}`;
        await sql`insert into telemetry_trend_hour (ipp_id, hour, samples, wiper_cleaning_n, wiper_fault_n, ${sql.join(columns.map((c) => sql.ref(c)))})
        select ipp_id, ${hour}, count(*),
          sum(case when wiper_state = 'cleaning' then 1 else 0 end), sum(case when wiper_state = 'fault' then 1 else 0 end),
          ${sql.join(aggregates)}
        from telemetry group by ipp_id, ${hour}`.execute(db);

        // Days at the offset the other day rollups were built with (none yet: the server builds them all at start).
        const meta = await (db as Kysely<{ rollup_meta: { key: string; value: string } }>)
          .selectFrom('rollup_meta')
          .select('value')
          .where('key', '=', 'day_offset_hours')
          .executeTakeFirst();
        if (meta) {
          const offset = Number(meta.value) * HOUR_MS;
          const day = sql`((hour + ${sql.lit(offset)}) / ${sql.lit(DAY_MS)}) * ${sql.lit(DAY_MS)} - ${sql.lit(offset)}`;
          const sums = SERIES.map(
            (s) =>
              sql`sum(${sql.ref(`${s}_n`)}), sum(${sql.ref(`${s}_sum`)}), min(${sql.ref(`${s}_min`)}), max(${sql.ref(`${s}_max`)})`,
          );
          await sql`insert into telemetry_trend_day (ipp_id, day, samples, wiper_cleaning_n, wiper_fault_n, ${sql.join(columns.map((c) => sql.ref(c)))})
          select ipp_id, ${day}, sum(samples), sum(wiper_cleaning_n), sum(wiper_fault_n), ${sql.join(sums)}
          from telemetry_trend_hour group by ipp_id, ${day}`.execute(db);
        }
      }),
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('telemetry_trend_day').execute();
      await db.schema.dropTable('telemetry_trend_hour').execute();
    },
  };
}
