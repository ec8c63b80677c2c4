/**
 * The scale benchmarks' data generator, on SQLite and on PostgreSQL: a fleet of stations with ROIs over a year, classes
 * with a realistic skew (a few dominate), telemetry every minute, the rollups and maintained counts as ingest would
 * have left them. Rows are generated inside the database (a recursive CTE on SQLite, generate_series on PostgreSQL)
 * with the secondary indexes dropped and built again afterwards, so 10M ROIs load in minutes.
 *
 *   npm run bench:generate -- --rois 10000000                 # into a fresh SQLite data directory (printed)
 *   npm run bench:generate -- --rois 10000000 --pg            # into a fresh PostgreSQL database (printed)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { hashPassword, hashToken } from '../../apps/server/src/security/password.ts';
import { buildRoiRollups, seedFleet } from './fleet.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface FleetShape {
  rois: number;
  stations: number;
  /** Classes 1..classes; the 8 system classes exist, the rest are added. */
  classes: number;
  days: number;
  now: number;
  /** Telemetry every minute for every station over `days` (false: none). */
  telemetry: boolean;
  /** Users of the team besides `bench`: bench-user-1…n, password bench-pass (one session per account). */
  users?: number;
}

/** The key instrument `B<i>` presents (x-device-key); the fleet stores its hash as registration would. */
export const deviceKeyOf = (i: number) => `bench-device-key-${i}`;

export interface Target {
  db: Db;
  /** SQLite: the data directory; PostgreSQL: the database URL. */
  dataDir: string;
  databaseUrl?: string;
  describe: string;
  drop(): Promise<void>;
}

async function pgAdmin(statement: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database: a SQLite file in a new data directory or a new PostgreSQL database. */
export async function freshTarget(dialect: 'sqlite' | 'postgres', label: string): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ipp-bench-${label}-`));
  if (dialect === 'sqlite') {
    const db = openDatabase({ dataDir });
    await migrateToLatest(db);
    return {
      db,
      dataDir,
      describe: `SQLite ${dataDir}`,
      async drop() {
        await db.close().catch(() => undefined);
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `ipp_bench_${label}_${process.pid}_${Date.now().toString(36)}`;
  await pgAdmin(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const db = openDatabase({ dataDir, databaseUrl });
  await migrateToLatest(db);
  return {
    db,
    dataDir,
    databaseUrl,
    describe: `PostgreSQL database ${name}`,
    async drop() {
      await db.close().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
      await pgAdmin(`drop database if exists ${name} with (force)`);
    },
  };
}

/** Rows 1..n as a relation `seq(x)`. */
function sequence(db: Db, n: number): RawBuilder<unknown> {
  return db.dialect === 'postgres'
    ? sql`(select x::bigint as x from generate_series(1, ${sql.lit(n)}) as g(x)) seq`
    : sql`(with recursive s(x) as (select 1 union all select x + 1 from s where x < ${sql.lit(n)}) select x from s) seq`;
}

/** The secondary indexes of a table (not those behind a primary key or unique constraint), to drop and rebuild. */
async function secondaryIndexes(db: Db, table: string) {
  if (db.dialect === 'postgres') {
    const r = await sql<{ name: string; sql: string }>`
      select indexname as name, indexdef as sql from pg_indexes
      where schemaname = current_schema() and tablename = ${table}
        and indexname not in (select conname from pg_constraint)`.execute(db.kysely);
    return r.rows;
  }
  const r = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db.kysely);
  return r.rows;
}

/** Runs `load` with the table's secondary indexes dropped, then builds them again (one sort each). */
async function withoutIndexes(db: Db, table: string, load: () => Promise<void>) {
  const indexes = await secondaryIndexes(db, table);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db.kysely);
  await load();
  for (const index of indexes) await sql.raw(index.sql).execute(db.kysely);
}

/**
 * Loads the fleet: team "Bench" (administrator bench / bench-pass), stations B1…Bn with device keys deviceKeyOf(i),
 * `rois` ROIs spread uniformly over the stations and the `days` before `now`, classes skewed (class k of n has about
 * the share k^(1/3) − (k−1)^(1/3) of n^(1/3): with 40 classes the first takes 29%, the first five 50%), one in 50 also
 * labelled by hand, one in about 300 a favourite; telemetry every minute; rollups and maintained counts.
 * Answers the seconds each part took.
 */
export async function generateFleet(db: Db, shape: FleetShape): Promise<Record<string, number>> {
  const k: Kysely<Database> = db.kysely;
  const took: Record<string, number> = {};
  const time = async (name: string, fn: () => Promise<void>) => {
    const t0 = performance.now();
    await fn();
    took[name] = (performance.now() - t0) / 1000;
  };
  await seedFleet(k, shape.stations, shape.now);
  for (let i = 1; i <= shape.stations; i++) {
    await k
      .updateTable('ipps')
      .set({ device_key_hash: hashToken(deviceKeyOf(i)) })
      .where('dev_id', '=', `B${i}`)
      .execute();
  }
  if (shape.users) {
    const team = await k.selectFrom('teams').select('id').where('name', '=', 'Bench').executeTakeFirstOrThrow();
    const password_hash = await hashPassword('bench-pass', 10);
    await k
      .insertInto('users')
      .values(
        Array.from({ length: shape.users }, (_, i) => ({
          account: `bench-user-${i + 1}`,
          name: `Bench user ${i + 1}`,
          password_hash,
          phone: '',
          email: '',
          group_id: team.id,
          role: 'user' as const,
          avatar: '',
          is_demo: 0,
          created_at: shape.now,
          updated_at: shape.now,
        })),
      )
      .execute();
  }
  const existing = await k.selectFrom('classes').select(['label_index']).execute();
  const have = new Set(existing.map((c) => c.label_index));
  for (let i = 1; i <= shape.classes; i++) {
    if (have.has(i)) continue;
    await k
      .insertInto('classes')
      .values({
        name: `${String(i).padStart(3, '0')}Bench_class_${i}`,
        label_index: i,
        system: 0,
        group_id: null,
        created_at: shape.now,
      })
      .execute();
  }
  const classIds = await k
    .selectFrom('classes')
    .select(['id', 'label_index'])
    .where('label_index', '<=', shape.classes)
    .execute();
  if (classIds.some((c) => c.id !== c.label_index)) throw new Error('the generator expects class id = label index');

  const pgsql = db.dialect === 'postgres';
  // Independent multiplicative hashes of the row number (high bits), as unsigned 32-bit values and as [0, 1).
  const hash = (mult: number) => sql`((x * ${sql.lit(mult)}) % 4294967296)`;
  const unit = (mult: number) => sql`(${hash(mult)} / 4294967296.0)`;
  const int = (e: RawBuilder<unknown>) => (pgsql ? sql`floor(${e})::bigint` : sql`cast(${e} as integer)`);
  const start = shape.now - shape.days * DAY;
  const cls = sql`(1 + ${int(sql`${sql.lit(shape.classes)} * ${unit(2246822519)} * ${unit(2246822519)} * ${unit(2246822519)}`)})`;
  const sha = pgsql ? sql`lpad(to_hex(x), 64, '0')` : sql`printf('%064x', x)`;
  const favouriteEvery = Math.max(1, Math.floor(shape.rois / 300));
  await time('rois', () =>
    withoutIndexes(db, 'rois', async () => {
      // In chunks of 1M rows: one statement per chunk keeps PostgreSQL's and SQLite's temporary space small.
      const CHUNK = 1_000_000;
      for (let from = 0; from < shape.rois; from += CHUNK) {
        const n = Math.min(CHUNK, shape.rois - from);
        await sql`
          insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex,
                            confidence, class_id, hi, favorite_at)
          select 1 + ${hash(3266489917)} % ${sql.lit(shape.stations)},
                 ${sql.lit(start)} + ${int(sql`${unit(2654435761)} * ${sql.lit(shape.days * DAY)}`)},
                 ${sql.lit(shape.now)}, ${sha}, 'image/png', 9000, 120, 90,
                 100 + ${hash(668265263)} % 20000,
                 ${cls}, 0.5 + (${hash(374761393)} % 50) / 100.0, ${cls},
                 case when x % 50 = 0 then 1 else 0 end,
                 case when x % ${sql.lit(favouriteEvery)} = 0 then ${sql.lit(shape.now)} - x else null end
          from (select x + ${sql.lit(from)} as x from ${sequence(db, n)}) xs`.execute(k);
      }
    }),
  );
  if (shape.telemetry) {
    const minutes = shape.days * 24 * 60;
    await time('telemetry', () =>
      withoutIndexes(db, 'telemetry', async () => {
        for (let station = 1; station <= shape.stations; station++) {
          await sql`
            insert into telemetry (ipp_id, at, received_at, temperature_c, humidity_pct, volume_5min_ml, volume_total_l,
                                   ram_mb, storage_gb, cpu_temp_c, gpu_temp_c, wiper_state)
            select ${sql.lit(station)}, ${sql.lit(start)} + x * ${sql.lit(MINUTE)}, ${sql.lit(start)} + x * ${sql.lit(MINUTE)} + 800,
                   12 + (${hash(2654435761)} % 800) / 100.0, 40 + (${hash(2246822519)} % 3000) / 100.0,
                   500 + ${hash(3266489917)} % 100, x * 0.1, 2000 + ${hash(668265263)} % 500, 64 - x / 100000.0,
                   45 + (${hash(374761393)} % 1500) / 100.0, 50 + (${hash(2246822519)} % 1500) / 100.0, 'idle'
            from ${sequence(db, minutes)}`.execute(k);
        }
      }),
    );
  }
  await time('rollups', () => buildRoiRollups(k));
  await time('analyze', async () => {
    // What a database in service has: planner statistics (PostgreSQL's autovacuum, SQLite's PRAGMA optimize at open).
    // On PostgreSQL also what autovacuum leaves: a visibility map and hint bits (otherwise the first reads of the
    // bulk-loaded rows write every page again), and a checkpoint, so the load does not land in the middle of one.
    if (db.dialect === 'postgres') {
      await sql`vacuum (analyze)`.execute(k);
      await sql`checkpoint`.execute(k);
    } else await sql`analyze`.execute(k);
  });
  return took;
}

// The command line: generate one database and leave it, printing where it is.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    options: {
      rois: { type: 'string', default: '10000000' },
      stations: { type: 'string', default: '20' },
      classes: { type: 'string', default: '40' },
      days: { type: 'string', default: '365' },
      pg: { type: 'boolean', default: false },
      'no-telemetry': { type: 'boolean', default: false },
    },
  });
  const target = await freshTarget(values.pg ? 'postgres' : 'sqlite', 'gen');
  const t0 = performance.now();
  const took = await generateFleet(target.db, {
    rois: Number(values.rois),
    stations: Number(values.stations),
    classes: Number(values.classes),
    days: Number(values.days),
    now: Date.now(),
    telemetry: !values['no-telemetry'],
  });
  await target.db.close();
  const parts = Object.entries(took)
    .map(([name, s]) => `${name} ${s.toFixed(1)} s`)
    .join(', ');
  console.log(`${target.describe}: generated in ${((performance.now() - t0) / 1000).toFixed(1)} s (${parts})`);
  if (target.databaseUrl) console.log(`DATABASE_URL=${target.databaseUrl} DATA_DIR=${target.dataDir}`);
  else console.log(`DATA_DIR=${target.dataDir}`);
}
