import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Human description for logs, without credentials. */
  describe: string;
  close(): Promise<void>;
}

// int8 (bigint) columns hold millisecond timestamps, well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests run each suite in a fresh one). */
  pgSchema?: string;
  /** SQLite file name, relative to dataDir, or ':memory:'. */
  sqliteFile?: string;
  /** Sees every statement with its parameters and duration (the benchmarks replay the API's SQL on the raw driver). */
  log?: (event: LogEvent) => void;
}

export function openDatabase(options: DatabaseOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.log });
    const url = new URL(options.databaseUrl);
    return {
      kysely,
      dialect: 'postgres',
      describe: `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}${options.pgSchema ? ` (schema ${options.pgSchema})` : ''}`,
      close: () => kysely.destroy(),
    };
  }
  const file = options.sqliteFile ?? 'ipp-console.sqlite';
  const target = file === ':memory:' ? file : path.join(options.dataDir, file);
  if (file !== ':memory:') fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(target);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A 64 MiB page cache and memory-mapped reads: the statistics read small, hot rollup ranges of a file that grows
  // with the images, and should not pay a read() per page for it.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  // Planner statistics where tables changed a lot (SQLite's advice for long-lived connections): without them the
  // planner may pick a station-wide index for a small subset such as the recycle bin. analysis_limit samples each
  // index instead of reading it whole, so a 10M-ROI database still opens in moments.
  sqlite.pragma('analysis_limit = 1000');
  sqlite.pragma('optimize = 0x10002');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log: options.log });
  return { kysely, dialect: 'sqlite', describe: `SQLite ${target}`, close: () => kysely.destroy() };
}
