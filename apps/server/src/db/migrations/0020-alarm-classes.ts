import type { Kysely } from 'kysely';

/**
 * Biology alarm rules (issue 23): a rule may watch one class's concentration. The rule's class goes with the class
 * (a removed class leaves the rule without one, and it raises nothing); an alarm keeps the class it was about.
 */
export function alarmClassesMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('class_id', 'integer', (c) => c.references('classes.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('alarms').addColumn('class_id', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('alarms').dropColumn('class_id').execute();
      await db.schema.alterTable('alarm_rules').dropColumn('class_id').execute();
    },
  };
}
