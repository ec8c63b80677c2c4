import type { CreateTableBuilder } from 'kysely';
import type { DialectName } from '../database.ts';

/** Adds the auto-increment `id` primary key: SQLite's rowid alias, PostgreSQL's serial. */
export function withIdColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c) => c.primaryKey());
}
