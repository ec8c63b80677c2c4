/**
 * Ingest benchmark: ROIs per second acknowledged over HTTP (POST /api/device/rois to the real server process, every
 * acknowledgement durable: files synced, row committed) against a raw floor measured in the same run — the least a
 * durable acknowledgement needs: write the file, fsync it (temp file, rename, fsync the folder, as the server does),
 * insert one row and commit, in this process, with the same number of concurrent writers. Floor and HTTP phases
 * alternate, so noise hits both. The images are real PWSSC plankton images (read from ../shared, never copied).
 *
 *   npm run bench:ingest                      # SQLite, 20 instruments, 3 × (floor, HTTP) of 10 s
 *   npm run bench:ingest -- --pg              # PostgreSQL
 *   --instruments N  --seconds S  --phases P  --write
 *   --profile DIR                             # the server's threads' CPU profiles (.cpuprofile) written to DIR;
 *                                             # `npm run bench:profile-summary -- DIR/*.cpuprofile` reads them
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { writeFileDurably } from '../../apps/server/src/storage/files.ts';
import { freshTarget, generateFleet, PG_URL } from './generate.ts';
import { ingestImages, ingestPhase, type IngestPhase } from './ingest-load.ts';
import { repoRoot, startServerProcess } from './server-process.ts';

const { values: flags } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    instruments: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '10' },
    phases: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const INSTRUMENTS = Number(flags.instruments);
const SECONDS = Number(flags.seconds);
const PHASES = Number(flags.phases);

const { nextImage, source } = await ingestImages();
const httpPhase = (url: string) => ingestPhase([url], INSTRUMENTS, SECONDS, nextImage);

/** The floor's store: a folder of files and one table, as small as a durable acknowledgement can be. */
async function floorStore() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-floor-'));
  if (flags.pg) {
    const name = `ipp_bench_floor_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
    await pool.query(
      'create table rois (id bigserial primary key, ipp_id int not null, sha256 text not null, bytes int not null, at bigint not null)',
    );
    return {
      dir,
      insert: async (ipp: number, sha: string, bytes: number) => {
        await pool.query('insert into rois (ipp_id, sha256, bytes, at) values ($1, $2, $3, $4)', [ipp, sha, bytes, Date.now()]);
      },
      async close() {
        await pool.end();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = new SQLite(path.join(dir, 'floor.sqlite'));
  // The server's durability settings (database.ts).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'create table rois (id integer primary key, ipp_id integer not null, sha256 text not null, bytes integer not null, at integer not null)',
  );
  const stmt = db.prepare('insert into rois (ipp_id, sha256, bytes, at) values (?, ?, ?, ?)');
  return {
    dir,
    insert: async (ipp: number, sha: string, bytes: number) => {
      stmt.run(ipp, sha, bytes, Date.now());
    },
    async close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Store = Awaited<ReturnType<typeof floorStore>>;

async function floorPhase(store: Store) {
  const until = Date.now() + SECONDS * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INSTRUMENTS }, async (_, i) => {
      while (Date.now() < until) {
        const data = nextImage(i + 1);
        const sha = crypto.createHash('sha256').update(data).digest('hex');
        await writeFileDurably(path.join(store.dir, sha.slice(0, 2), sha.slice(2, 4), `${sha}.png`), data);
        await store.insert(i + 1, sha, data.length);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

const target = await freshTarget(flags.pg ? 'postgres' : 'sqlite', 'ingest');
await generateFleet(target.db, { rois: 0, stations: INSTRUMENTS, classes: 8, days: 1, now: Date.now(), telemetry: false });
await target.db.close();
const server = await startServerProcess({
  dataDir: target.dataDir,
  databaseUrl: target.databaseUrl,
  env: { SIMILARITY_PRELOAD: 'off' },
  ...(flags.profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(flags.profile)}`] } : {}),
});
const store = await floorStore();
console.log(
  `Ingest: ${INSTRUMENTS} concurrent instruments, ${PHASES} × (floor, HTTP) of ${SECONDS} s, ${target.describe}, ${source}`,
);
const rows: { floor: number; http: IngestPhase }[] = [];
await httpPhase(server.url); // warm-up: code paths, the model cache, the page cache
for (let p = 0; p < PHASES; p++) {
  const floor = await floorPhase(store);
  const http = await httpPhase(server.url);
  rows.push({ floor, http });
  console.log(
    `  phase ${p + 1}: floor ${floor.toFixed(0)} ROIs/s, HTTP ${http.perSecond.toFixed(1)} ROIs/s ` +
      `(p50 ${http.p50.toFixed(0)} ms, p99 ${http.p99.toFixed(0)} ms, ${http.errors} errors): ${((100 * http.perSecond) / floor).toFixed(1)}%`,
  );
}
const rss = server.rssMb();
await server.stop();
await store.close();
await target.drop();

const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
const lines = [
  `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}; ${flags.pg ? 'PostgreSQL' : 'SQLite'}; ` +
    `${INSTRUMENTS} concurrent instruments, ${source}; ${PHASES} alternating phases of ${SECONDS} s.`,
  '',
  '| phase | floor: ROIs/s | HTTP: ROIs/s | HTTP p50 | HTTP p99 | errors | HTTP / floor |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r, i) =>
      `| ${i + 1} | ${r.floor.toFixed(0)} | ${r.http.perSecond.toFixed(1)} | ${r.http.p50.toFixed(0)} ms | ${r.http.p99.toFixed(0)} ms | ` +
      `${r.http.errors} | ${((100 * r.http.perSecond) / r.floor).toFixed(1)}% |`,
  ),
  '',
  `HTTP ingest reaches ${((100 * sum((r) => r.http.perSecond)) / sum((r) => r.floor)).toFixed(1)}% of the floor (target ≥ 50%); ` +
    `server RSS at the end ${rss.toFixed(0)} MB.`,
];
console.log(lines.join('\n'));
if (flags.write) {
  const marker = `ingest-${flags.pg ? 'pg' : 'sqlite'}`;
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const doc = fs.readFileSync(file, 'utf8');
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const block = `${start}\n${lines.join('\n')}\n${end}`;
  const at = doc.indexOf(start);
  fs.writeFileSync(
    file,
    at >= 0 ? doc.slice(0, at) + block + doc.slice(doc.indexOf(end) + end.length) : `${doc.trimEnd()}\n\n${block}\n`,
  );
}
