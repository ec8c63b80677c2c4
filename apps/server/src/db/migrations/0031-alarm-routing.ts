import type { Kysely } from 'kysely';

/**
 * Routing and escalation on alarm rules (issue 40): whether the webhook hears a rule, who is e-mailed (null: everyone
 * who chose e-mail, as before), and whom an alarm left unacknowledged is escalated to after how long; alarms remember
 * when they escalated. Existing rules keep the behaviour they had.
 */
export function alarmRoutingMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('notify_webhook', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('alarm_rules').addColumn('notify_user_ids', 'text').execute();
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('escalate_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('escalate_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('alarm_rules')
        .addColumn('escalate_webhook', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('alarms').addColumn('escalated_at', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const column of ['notify_webhook', 'notify_user_ids', 'escalate_minutes', 'escalate_user_ids', 'escalate_webhook'])
        await db.schema.alterTable('alarm_rules').dropColumn(column).execute();
      await db.schema.alterTable('alarms').dropColumn('escalated_at').execute();
    },
  };
}
