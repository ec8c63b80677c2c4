import { sql, type Kysely } from 'kysely';
import { SYSTEM_CLASSES } from '@ipp/contracts';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

const MEASURED_NUMBERS = [
  'temperature_c',
  'humidity_pct',
  'volume_5min_ml',
  'volume_total_l',
  'ram_mb',
  'storage_gb',
  'cpu_temp_c',
  'gpu_temp_c',
  'uvc_port_frequency_hz',
  'uvc_port_duty_pct',
  'uvc_illuminator_frequency_hz',
  'uvc_illuminator_duty_pct',
  'uvc_voltage_v',
  'uvc_current_a',
  'lp_current_a',
  'lp_voltage_v',
  'lp_temperature_c',
  'cb_current_a',
  'cb_voltage_v',
] as const;

/**
 * The monitoring half: classes, telemetry, ROIs and the rollups every statistic reads (docs/decisions.md
 * "Rollups"). Hour rollups are keyed by UTC hour start, day rollups by the start of the day at the statistics
 * offset (STATS_UTC_OFFSET); class_key 0 = not classified.
 */
export function monitoringMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('classes'), dialect)
        .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('label_index', 'integer', (c) => c.unique())
        .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      const now = Date.now();
      await db
        .insertInto('classes' as never)
        .values(
          SYSTEM_CLASSES.map((c) => ({
            name: c.name,
            label_index: c.label_index,
            system: 1,
            visible: 1,
            created_at: now,
          })) as never,
        )
        .execute();

      // One column at a time: SQLite's ALTER TABLE adds a single column per statement.
      const ippColumns: [string, 'text' | 'bigint' | 'integer' | 'double precision', number | null][] = [
        ['applied_config', 'text', null],
        ['applied_at', 'bigint', null],
        ['config_version', 'integer', 1],
        ['latest_telemetry', 'text', null],
        ['online_ms', 'bigint', 0],
        ['last_volume_total', 'double precision', null],
        ['last_roi_at', 'bigint', null],
        ['reported_offline_at', 'bigint', null],
      ];
      for (const [name, type, fallback] of ippColumns) {
        await db.schema
          .alterTable('ipps')
          .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
          .execute();
      }

      let telemetry = withIdColumn(db.schema.createTable('telemetry'), dialect)
        .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('wiper_state', 'varchar(16)')
        .addColumn('wiper_clean_count', 'bigint')
        .addColumn('wiper_last_clean_at', 'bigint')
        .addColumn('applied_config', 'text');
      for (const name of MEASURED_NUMBERS) telemetry = telemetry.addColumn(name, 'double precision');
      await telemetry.addUniqueConstraint('telemetry_ipp_at_uq', ['ipp_id', 'at']).execute();

      await withIdColumn(db.schema.createTable('rois'), dialect)
        .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('restrict'))
        .addColumn('roi_time', 'bigint', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'char(64)', (c) => c.notNull())
        .addColumn('mime', 'varchar(16)', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('size_px', 'integer', (c) => c.notNull())
        .addColumn('roi_labelindex', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('confidence', 'double precision')
        .addColumn('class_id', 'integer', (c) => c.references('classes.id').onDelete('restrict'))
        .addColumn('hi', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('collect_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_demo_image', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('invalid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('favorite_at', 'bigint')
        .addUniqueConstraint('rois_ipp_sha_uq', ['ipp_id', 'sha256'])
        .execute();
      await db.schema.createIndex('rois_ipp_time_idx').on('rois').columns(['ipp_id', 'roi_time']).execute();
      await db.schema.createIndex('rois_favorite_idx').on('rois').columns(['favorite_at']).execute();

      // Rollups are clustered by their key on SQLite (WITHOUT ROWID): range scans read one B-tree, not two.
      const clustered = <T extends { modifyEnd(node: ReturnType<typeof sql>): T }>(table: T): T =>
        dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
      for (const [table, time] of [
        ['roi_rollup_hour', 'hour'],
        ['roi_rollup_day', 'day'],
      ] as const) {
        await clustered(
          db.schema
            .createTable(table)
            .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
            .addColumn(time, 'bigint', (c) => c.notNull())
            .addColumn('class_key', 'integer', (c) => c.notNull())
            .addColumn('n', 'integer', (c) => c.notNull())
            .addPrimaryKeyConstraint(`${table}_pk`, ['ipp_id', time, 'class_key']),
        ).execute();
      }
      // ROIs per station and hour over all classes: histograms and the 24-hour view read one row per hour, however
      // many classes the hour holds.
      await clustered(
        db.schema
          .createTable('roi_count_hour')
          .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
          .addColumn('hour', 'bigint', (c) => c.notNull())
          .addColumn('n', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('roi_count_hour_pk', ['ipp_id', 'hour']),
      ).execute();
      await clustered(
        db.schema
          .createTable('roi_totals')
          .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
          .addColumn('class_key', 'integer', (c) => c.notNull())
          .addColumn('n', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('roi_totals_pk', ['ipp_id', 'class_key']),
      ).execute();
      for (const [table, time] of [
        ['telemetry_rollup_hour', 'hour'],
        ['telemetry_rollup_day', 'day'],
      ] as const) {
        await clustered(
          db.schema
            .createTable(table)
            .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
            .addColumn(time, 'bigint', (c) => c.notNull())
            .addColumn('samples', 'integer', (c) => c.notNull())
            .addColumn('temp_n', 'integer', (c) => c.notNull())
            .addColumn('temp_sum', 'double precision', (c) => c.notNull())
            .addColumn('temp_min', 'double precision')
            .addColumn('temp_max', 'double precision')
            .addColumn('hum_n', 'integer', (c) => c.notNull())
            .addColumn('hum_sum', 'double precision', (c) => c.notNull())
            .addColumn('volume_l', 'double precision', (c) => c.notNull())
            .addPrimaryKeyConstraint(`${table}_pk`, ['ipp_id', time]),
        ).execute();
      }
      // Which UTC offset the day rollups' days start at (STATS_UTC_OFFSET); they are rebuilt when it changes.
      await db.schema
        .createTable('rollup_meta')
        .addColumn('key', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      if (dialect === 'postgres') await sql`analyze`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'rollup_meta',
        'telemetry_rollup_day',
        'telemetry_rollup_hour',
        'roi_totals',
        'roi_rollup_day',
        'roi_rollup_hour',
        'rois',
        'telemetry',
        'classes',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
