import type { Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/**
 * An alarm cleared by hand and its comment thread (issue 40): who cleared it and why, and what the team wrote about it
 * while it was handled. Comments go with their alarm (and so with its station or team).
 */
export function alarmThreadsMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('alarms').addColumn('cleared_by_name', 'varchar(64)').execute();
      await db.schema.alterTable('alarms').addColumn('clear_reason', 'varchar(500)').execute();
      await withIdColumn(db.schema.createTable('alarm_comments'), dialect)
        .addColumn('alarm_id', 'integer', (c) => c.notNull().references('alarms.id').onDelete('cascade'))
        .addColumn('user_id', 'integer')
        .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('text', 'varchar(1000)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alarm_comments_alarm').on('alarm_comments').columns(['alarm_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('alarm_comments').execute();
      await db.schema.alterTable('alarms').dropColumn('clear_reason').execute();
      await db.schema.alterTable('alarms').dropColumn('cleared_by_name').execute();
    },
  };
}
