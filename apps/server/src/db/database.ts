import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type Dialect,
  type Driver,
  type LogEvent,
  type TransactionBuilder,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Human description for logs, without credentials. */
  describe: string;
  /** PostgreSQL only: how to open a connection of one's own (LISTEN for live events needs a dedicated one). */
  pg?: { connectionString: string; schema?: string };
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
    const kysely = new GuardedKysely<Database>({ dialect: guarded(new PostgresDialect({ pool })), log: options.log });
    const url = new URL(options.databaseUrl);
    return {
      kysely,
      dialect: 'postgres',
      describe: `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}${options.pgSchema ? ` (schema ${options.pgSchema})` : ''}`,
      pg: { connectionString: options.databaseUrl, schema: options.pgSchema },
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
  const kysely = new GuardedKysely<Database>({ dialect: guarded(new SqliteDialect({ database: sqlite })), log: options.log });
  return { kysely, dialect: 'sqlite', describe: `SQLite ${target}`, close: () => kysely.destroy() };
}

/**
 * Thrown when code inside `transaction().execute(fn)` queries through the plain handle instead of the transaction.
 * On SQLite the transaction holds the only connection, so that query would wait for itself for ever and every later
 * request behind it (issue 20's server-wide hang); on PostgreSQL it reads outside the transaction and takes a second
 * pool connection. Failing at once turns a silent hang into an error with a stack that names the culprit.
 */
export class QueryOutsideTransactionError extends Error {
  constructor() {
    super('A query used the plain database handle while this code holds an open transaction: pass the transaction instead');
    this.name = 'QueryOutsideTransactionError';
  }
}

interface TransactionState {
  open: boolean;
}
const openTransaction = new AsyncLocalStorage<TransactionState>();

/** Runs a transaction's callback marked as "inside a transaction" for every await it makes, until it settles. */
async function insideTransaction<T>(callback: () => Promise<T>): Promise<T> {
  const state: TransactionState = { open: true };
  try {
    return await openTransaction.run(state, callback);
  } finally {
    // Work the callback started but did not await may run after the commit; by then the plain handle is fine.
    state.open = false;
  }
}

function guardBuilder<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  const guardedBuilder: Pick<TransactionBuilder<DB>, 'execute' | 'setIsolationLevel' | 'setAccessMode'> = {
    execute: (callback) => builder.execute((trx) => insideTransaction(() => callback(trx))),
    setIsolationLevel: (level) => guardBuilder(builder.setIsolationLevel(level)),
    setAccessMode: (mode) => guardBuilder(builder.setAccessMode(mode)),
  };
  return guardedBuilder as TransactionBuilder<DB>;
}

/** Kysely whose transactions mark their callback, so the driver can refuse the plain handle inside them. */
class GuardedKysely<DB> extends Kysely<DB> {
  override transaction(): TransactionBuilder<DB> {
    return guardBuilder(super.transaction());
  }
}

/** The dialect with a driver that refuses a new connection to code that is inside an open transaction. */
function guarded(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => {
      const driver = dialect.createDriver();
      return new Proxy(driver, {
        get(target, prop, receiver) {
          if (prop === 'acquireConnection') {
            return () => {
              if (openTransaction.getStore()?.open) return Promise.reject(new QueryOutsideTransactionError());
              return target.acquireConnection();
            };
          }
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }) satisfies Driver;
    },
  };
}
