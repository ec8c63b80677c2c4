import type { Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/** The instrument registry and each user's followed stations (spec §3 User config). */
export function ippsMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('ipps'), dialect)
        .addColumn('dev_id', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('site_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('country', 'varchar(2)', (c) => c.notNull().defaultTo(''))
        .addColumn('longitude', 'double precision')
        .addColumn('latitude', 'double precision')
        .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('restrict'))
        .addColumn('serial_number', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('device_key_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('last_online_at', 'bigint')
        .addColumn('wiper_status', 'varchar(32)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ipps_group_idx').on('ipps').columns(['group_id', 'id']).execute();
      await db.schema
        .createTable('user_views')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('group_id', 'integer', (c) => c.references('teams.id').onDelete('set null'))
        .addColumn('ipp_ids', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('user_views').execute();
      await db.schema.dropTable('ipps').execute();
    },
  };
}
