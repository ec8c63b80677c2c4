import { DEFAULT_SEVERITY } from '@ipp/contracts';
import { sql, type Kysely } from 'kysely';

/**
 * Severity, durations and hysteresis on alarm rules (issue 40): a rule's severity (the alarms it raises keep it), how
 * long its condition must hold before it raises, where it clears, and what no data does. Rules and alarms from before
 * take their kind's default severity; the other columns default to the behaviour they had (at once, clear at the limit,
 * keep on no data).
 */
export function alarmSeverityMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('severity', 'varchar(16)', (c) => c.notNull().defaultTo('warning'))
        .execute();
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('for_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('alarm_rules').addColumn('clear_threshold', 'double precision').execute();
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('no_data', 'varchar(8)', (c) => c.notNull().defaultTo('keep'))
        .execute();
      await db.schema
        .alterTable('alarms')
        .addColumn('severity', 'varchar(16)', (c) => c.notNull().defaultTo('warning'))
        .execute();
      for (const [kind, severity] of Object.entries(DEFAULT_SEVERITY)) {
        await sql`update alarm_rules set severity = ${severity} where kind = ${kind}`.execute(db);
        await sql`update alarms set severity = ${severity} where kind = ${kind}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['severity', 'for_minutes', 'clear_threshold', 'no_data'])
        await db.schema.alterTable('alarm_rules').dropColumn(column).execute();
      await db.schema.alterTable('alarms').dropColumn('severity').execute();
    },
  };
}
