import type { Kysely } from 'kysely';

/**
 * Rules on any telemetry series (issue 40): which series, how it is compared (above, below, outside a band, rate of
 * change) and the band's floor; alarms keep them as their rule had them, like its threshold.
 */
export function alarmSeriesMigration() {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['alarm_rules', 'alarms']) {
        await db.schema.alterTable(table).addColumn('series', 'varchar(32)').execute();
        await db.schema.alterTable(table).addColumn('comparison', 'varchar(8)').execute();
        await db.schema.alterTable(table).addColumn('threshold_low', 'double precision').execute();
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['alarm_rules', 'alarms'])
        for (const column of ['series', 'comparison', 'threshold_low'])
          await db.schema.alterTable(table).dropColumn(column).execute();
    },
  };
}
