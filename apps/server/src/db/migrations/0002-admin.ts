import type { Kysely } from 'kysely';

/** System settings (key → JSON value) and the translation overrides of the interface management screen. */
export const adminMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('translations')
      .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('zh', 'text')
      .addColumn('en', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('translations').execute();
    await db.schema.dropTable('settings').execute();
  },
};
