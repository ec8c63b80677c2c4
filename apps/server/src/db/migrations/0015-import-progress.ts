import type { Kysely } from 'kysely';

/**
 * How far each console import is (issue 22: imports with progress). One row per import the caller named
 * (`progress_id`): its phase (upload, unpack, import, done, failed), the items done of the total, and at the end the
 * report or the error, so a caller whose request was cut (a proxy's timeout, the request deadline) still gets the
 * outcome. In the database rather than in one process's memory, so that any server process behind a proxy answers
 * it. Rows older than a day are removed by the next import.
 */
export const importProgressMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('import_progress')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('phase', 'varchar(16)', (c) => c.notNull())
      .addColumn('done', 'bigint', (c) => c.notNull())
      .addColumn('total', 'bigint', (c) => c.notNull())
      .addColumn('report', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('import_progress').execute();
  },
};
