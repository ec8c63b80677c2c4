import type { DialectName } from '../database.ts';

/** Auto-increment primary key type: SQLite's rowid alias, PostgreSQL's serial. */
export const idColumnType = (dialect: DialectName) => (dialect === 'sqlite' ? 'integer' : 'serial');
