import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type DatabaseConnection,
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
  /** PostgreSQL only: the pool's connections now (the /metrics endpoint). */
  poolStats?: () => { total: number; idle: number; waiting: number };
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
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
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
  const kysely = new GuardedKysely<Database>({
    dialect: guarded(new SqliteDialect({ database: sqlite }), true),
    log: options.log,
  });
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

const yieldingWork = new AsyncLocalStorage<true>();
/** The longest pause between two queries of yielding work. */
export const MAX_QUERY_PAUSE_MS = 250;

/**
 * Runs `work` so that, on SQLite, each query it starts outside a transaction waits first: a turn of the event loop,
 * and after any yielding work's query, as long again as that query held the connection (at most MAX_QUERY_PAUSE_MS).
 * So at most about half of the time goes to such work while other requests wait (issue 37). better-sqlite3 answers
 * synchronously and Kysely's promises settle in microtasks, so a request's queries otherwise run back to back with
 * nothing else in between: one user's long statistics read held every upload and page load until it was done, and an
 * upload, which needs a turn of the event loop for each step (its body, the image decoding, the file write), waited a
 * long query at each. The pause is one for the whole database, shared by every piece of yielding work, so several at
 * once take turns rather than adding up. Other work (uploads, page loads) never waits for it. The expensive routes run
 * their handlers this way (http/deadline.ts). No effect on PostgreSQL, whose queries wait on the network anyway.
 */
export function yieldingBetweenQueries<T>(work: () => T): T {
  return yieldingWork.run(true, work);
}

/**
 * The dialect with a driver that refuses a new connection to code that is inside an open transaction; with `paced`
 * (SQLite), work run by yieldingBetweenQueries waits its turn before each connection it takes.
 */
function guarded(dialect: Dialect, paced = false): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => {
      const driver = dialect.createDriver();
      // When yielding work may run its next query, and since when it holds the connection (0: it does not).
      const pacing = { freeAt: 0, heldSince: 0 };
      const waitTurn = async () => {
        await nextTurn();
        // Checked again after each wait: another piece of yielding work may have run a query meanwhile.
        for (let ms = pacing.freeAt - performance.now(); ms >= 1; ms = pacing.freeAt - performance.now()) await sleep(ms);
      };
      return new Proxy(driver, {
        get(target, prop, receiver) {
          if (prop === 'acquireConnection') {
            return () => {
              if (openTransaction.getStore()?.open) return Promise.reject(new QueryOutsideTransactionError());
              if (!paced || !yieldingWork.getStore()) return target.acquireConnection();
              return waitTurn()
                .then(() => target.acquireConnection())
                .then((connection) => {
                  pacing.heldSince = performance.now();
                  return connection;
                });
            };
          }
          if (prop === 'releaseConnection' && paced) {
            return (connection: DatabaseConnection) => {
              if (yieldingWork.getStore() && pacing.heldSince > 0) {
                const now = performance.now();
                pacing.freeAt = now + Math.min(now - pacing.heldSince, MAX_QUERY_PAUSE_MS);
                pacing.heldSince = 0;
              }
              return target.releaseConnection(connection);
            };
          }
          const value: unknown = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }) satisfies Driver;
    },
  };
}
