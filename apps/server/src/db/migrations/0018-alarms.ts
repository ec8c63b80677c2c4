import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/**
 * Alarms (issue 23): each team's rules on its stations' health, and the alarms they raise. An alarm keeps the rule's
 * name and kind and the station's identity, so its history outlives a removed rule. At most one open (not cleared)
 * alarm per rule and station: the partial unique index holds it when two server processes evaluate at once.
 */
export function alarmsMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('alarm_rules'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('threshold', 'double precision')
        .addColumn('minutes', 'integer')
        .addColumn('ipp_id', 'integer', (c) => c.references('ipps.id').onDelete('cascade'))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('renotify_minutes', 'integer', (c) => c.notNull().defaultTo(60))
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alarm_rules_group').on('alarm_rules').column('group_id').execute();

      await withIdColumn(db.schema.createTable('alarms'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('rule_id', 'integer', (c) => c.references('alarm_rules.id').onDelete('set null'))
        .addColumn('rule_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('threshold', 'double precision')
        .addColumn('minutes', 'integer')
        .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('value', 'double precision')
        .addColumn('raised_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('notified_at', 'bigint')
        .addColumn('acknowledged_at', 'bigint')
        .addColumn('acknowledged_by', 'integer')
        .addColumn('acknowledged_by_name', 'varchar(64)')
        .addColumn('ack_note', 'varchar(500)')
        .addColumn('cleared_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('alarms_one_open')
        .on('alarms')
        .columns(['rule_id', 'ipp_id'])
        .unique()
        .where(sql.ref('cleared_at'), 'is', null)
        .execute();
      await db.schema.createIndex('alarms_group_raised').on('alarms').columns(['group_id', 'raised_at']).execute();
      await db.schema.createIndex('alarms_ipp').on('alarms').column('ipp_id').execute();

      // Each team's webhook, and the deliveries waiting or done (an outbox: a notice survives a restart and is retried).
      await db.schema
        .createTable('alarm_webhooks')
        .addColumn('group_id', 'integer', (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
        .addColumn('url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('secret', 'varchar(128)', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await withIdColumn(db.schema.createTable('alarm_deliveries'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('alarm_id', 'integer', (c) => c.references('alarms.id').onDelete('cascade'))
        .addColumn('channel', 'varchar(16)', (c) => c.notNull().defaultTo('webhook'))
        .addColumn('recipient', 'varchar(254)')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('leased_until', 'bigint')
        .addColumn('attempted_at', 'bigint')
        .addColumn('delivered_at', 'bigint')
        .addColumn('failed_at', 'bigint')
        .addColumn('last_error', 'varchar(500)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('alarm_deliveries_due')
        .on('alarm_deliveries')
        .columns(['delivered_at', 'failed_at', 'next_at'])
        .execute();
      // Which alarms each user is e-mailed about: off, every alarm of the team, or those of the stations they follow.
      await db.schema
        .alterTable('users')
        .addColumn('alarm_email', 'varchar(16)', (c) => c.notNull().defaultTo('off'))
        .execute();
      await db.schema.createIndex('alarm_deliveries_group').on('alarm_deliveries').columns(['group_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('alarm_email').execute();
      await db.schema.dropTable('alarm_deliveries').execute();
      await db.schema.dropTable('alarm_webhooks').execute();
      await db.schema.dropTable('alarms').execute();
      await db.schema.dropTable('alarm_rules').execute();
    },
  };
}
