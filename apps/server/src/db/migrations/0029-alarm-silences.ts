import type { Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/**
 * Silences and maintenance windows (issue 40): a period in which the alarms of a station, a rule, both, or the whole
 * team notify nobody of their raising. They go with their team, station or rule.
 */
export function alarmSilencesMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('alarm_silences'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('ipp_id', 'integer', (c) => c.references('ipps.id').onDelete('cascade'))
        .addColumn('rule_id', 'integer', (c) => c.references('alarm_rules.id').onDelete('cascade'))
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'varchar(500)', (c) => c.notNull())
        .addColumn('created_by', 'integer')
        .addColumn('created_by_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alarm_silences_group_end').on('alarm_silences').columns(['group_id', 'ends_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('alarm_silences').execute();
    },
  };
}
