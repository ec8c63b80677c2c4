import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

export function sessionMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('teams'), dialect)
        .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await withIdColumn(db.schema.createTable('users'), dialect)
        .addColumn('account', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('group_id', 'integer', (c) => c.references('teams.id').onDelete('restrict'))
        .addColumn('role', 'varchar(16)', (c) => c.notNull().check(sql`role in ('superadmin', 'administrator', 'user')`))
        .addColumn('avatar', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_group_idx').on('users').column('group_id').execute();
      await withIdColumn(db.schema.createTable('sessions'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .addColumn('end_reason', 'varchar(16)')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'ended_at']).execute();
      await withIdColumn(db.schema.createTable('login_failures'), dialect)
        .addColumn('account', 'varchar(64)', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_account_idx').on('login_failures').columns(['account', 'at']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['login_failures', 'sessions', 'users', 'teams']) await db.schema.dropTable(table).execute();
    },
  };
}
