import type { Kysely } from 'kysely';

/**
 * Each user's own settings (spec §3 "User session": language, size), saved by POST /setting/save-user and answered
 * by user-info, so they follow the account to another browser. Null = not chosen (the site default applies).
 */
export const userPrefsMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('language', 'varchar(8)').execute();
    await db.schema.alterTable('users').addColumn('size', 'varchar(8)').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('size').execute();
    await db.schema.alterTable('users').dropColumn('language').execute();
  },
};
