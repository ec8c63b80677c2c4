import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from '../database.ts';

/** Adds the auto-increment `id` primary key: SQLite's rowid alias, PostgreSQL's serial. */
export function withIdColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c) => c.primaryKey());
}

/**
 * Runs a migration's steps as one transaction. Kysely's migrator wraps each migration in a transaction only where it
 * takes DDL in one (PostgreSQL); on SQLite every statement would commit alone, so a process stopped halfway would
 * leave a new column without the migration recorded (the next start fails on "duplicate column") and a backfill of
 * many statements would pay a disk flush each.
 */
export function atomically(db: Kysely<unknown>, dialect: DialectName, steps: (db: Kysely<unknown>) => Promise<void>) {
  return dialect === 'sqlite' ? db.transaction().execute(steps) : steps(db);
}
