/**
 * The identify browser's page of 200 on a generated fleet (generate.ts: 20 stations, 12 months, 40 skewed classes,
 * telemetry every minute), on SQLite or PostgreSQL, at 10M ROIs by default. For each filter, page 1 and a deep page
 * (reached by cursor, at position 400,000 of the filtered list or 80% of it when shorter): the API's p50/p99 (in
 * process, app.inject, signed in) against the same SQL replayed on the raw driver (a better-sqlite3 connection or a
 * pg client): every statement the API ran for that very call, captured from Kysely's log, in order; and its page
 * statement alone. Then bulk actions on 10,000 ROIs through the API.
 *
 *   npm run bench:pages -- --pg                      # generate 10M on PostgreSQL (kept, location printed), measure
 *   npm run bench:pages -- --rois 1000000            # 1M on SQLite
 *   npm run bench:pages -- --pg --reuse postgres://…/ipp_bench_pages_…   # measure a fleet generated before
 *   npm run bench:pages -- --reuse /tmp/ipp-bench-pages-…                # the same on SQLite
 *   --runs N (per filter and depth, default 200)  --write (docs/benchmarks.md, block pages-sqlite / pages-pg)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import type { LogEvent } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { freshTarget, generateFleet } from './generate.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: flags } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    rois: { type: 'string', default: '10000000' },
    reuse: { type: 'string' },
    runs: { type: 'string', default: '200' },
    stations: { type: 'string', default: '10' },
    write: { type: 'boolean', default: false },
  },
});
const RUNS = Number(flags.runs);
const WARMUP = 10;
const LIMIT = 200;
const DEEP = 400_000;
const BULK = 10_000;
const BULK_RUNS = 5;
/** Runs rotate over this many stations (each needs its deep cursors found first, by one slow offset call each). */
const STATIONS = Number(flags.stations);

// ---------------------------------------------------------------------------------------------------------------
// The fleet.

interface Fleet {
  db: Db;
  dataDir: string;
  databaseUrl?: string;
  describe: string;
  now: number;
  generated?: Record<string, number>;
}

let capture: { sql: string; params: readonly unknown[] }[] | null = null;
const log = (event: LogEvent) => {
  if (capture && event.level === 'query') capture.push({ sql: event.query.sql, params: event.query.parameters });
};

async function fleet(): Promise<Fleet> {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let describe: string;
  let generated: Record<string, number> | undefined;
  if (flags.reuse) {
    databaseUrl = flags.reuse.startsWith('postgres') ? flags.reuse : undefined;
    dataDir = databaseUrl ? fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-pages-')) : flags.reuse;
    describe = databaseUrl ? `PostgreSQL ${new URL(databaseUrl).pathname.slice(1)}` : `SQLite ${dataDir}`;
  } else {
    const target = await freshTarget(flags.pg ? 'postgres' : 'sqlite', 'pages');
    const t0 = performance.now();
    generated = await generateFleet(target.db, {
      rois: Number(flags.rois),
      stations: 20,
      classes: 40,
      days: 365,
      now: Date.now(),
      telemetry: true,
    });
    generated.total = (performance.now() - t0) / 1000;
    await target.db.close();
    ({ dataDir, databaseUrl, describe } = target);
    console.log(`  ${describe} generated in ${generated.total.toFixed(1)} s; kept: --reuse ${databaseUrl ?? dataDir}`);
  }
  const db = openDatabase({ dataDir, databaseUrl, log });
  const { now } = (await db.kysely
    .selectFrom('rois')
    .select((eb) => eb.fn.max('received_at').as('now'))
    .executeTakeFirstOrThrow()) as { now: number };
  return { db, dataDir, databaseUrl, describe, now: Number(now), generated };
}

/** The same SQL on the driver itself: no Kysely, no pool, one connection. */
interface Raw {
  run(sql: string, params: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
}

async function rawDriver(f: Fleet): Promise<Raw> {
  if (f.databaseUrl) {
    const client = new pg.Client({ connectionString: f.databaseUrl });
    await client.connect();
    return {
      run: async (sql, params) => void (await client.query(sql, params as unknown[])),
      close: () => client.end(),
    };
  }
  const sqlite = new SQLite(path.join(f.dataDir, 'ipp-console.sqlite'));
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  return {
    run: async (sql, params) => {
      const stmt = sqlite.prepare(sql);
      if (stmt.reader) stmt.all(...(params as unknown[]));
      else stmt.run(...(params as unknown[]));
    },
    close: async () => void sqlite.close(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring.

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};
const ms = (v: number) => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);

type App = Awaited<ReturnType<typeof buildApp>>;

interface Answer {
  code: number;
  count?: number;
  data: { next?: string | null; items?: { id: number }[] } & Record<string, unknown>;
}

async function api(app: App, token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await app.inject({ method, url, headers: { 'x-token': token }, ...(payload ? { payload } : {}) });
  const answer = res.json() as Answer;
  if (answer.code !== 1000) throw new Error(`${method} ${url}: ${res.body.slice(0, 300)}`);
  return answer;
}

interface Sample {
  api: number;
  raw: number;
  page: number;
  statements: number;
}

/** One call through the API with its SQL captured, then that SQL replayed on the raw driver. */
async function sample(app: App, raw: Raw, token: string, url: string): Promise<Sample> {
  capture = [];
  const t0 = performance.now();
  await api(app, token, 'GET', url);
  const apiMs = performance.now() - t0;
  const statements = capture;
  capture = null;
  let rawMs = 0;
  let pageMs = 0;
  for (const s of statements) {
    const t1 = performance.now();
    await raw.run(s.sql, s.params);
    const took = performance.now() - t1;
    rawMs += took;
    // The page itself: the statement that orders ROIs and takes a page of them.
    if (/from "rois"/.test(s.sql) && /order by/i.test(s.sql) && /limit/i.test(s.sql)) pageMs += took;
  }
  return { api: apiMs, raw: rawMs, page: pageMs, statements: statements.length };
}

interface Filter {
  name: string;
  query: (station: number) => string;
}

const filters = (topClass: number, rareClass: number): Filter[] => [
  { name: 'newest first', query: () => '' },
  { name: `one AI class, the largest (t:ai:c:${topClass})`, query: () => `&code=t:ai:c:${topClass}` },
  { name: `one AI class, a rare one (t:ai:c:${rareClass})`, query: () => `&code=t:ai:c:${rareClass}` },
  { name: 'last 31 days (Roi_time_s=-31 day)', query: () => '&Roi_time_s=-31%20day' },
  { name: 'smallest first (size asc)', query: () => '&diysort=size&sorttype=asc' },
  { name: 'size range 500–2000 px', query: () => '&coordRange_0=500&coordRange_1=2000' },
  { name: 'unclassified group (dataIndex=ui)', query: () => '&dataIndex=ui' },
];

const listUrl = (station: number, f: Filter) =>
  `/api/roi/index?category_id=-100&ipp_id=${station}&limit=${LIMIT}${f.query(station)}`;

/** The cursor of the page at position DEEP of a station's filtered list (80% of it when shorter), by one offset call. */
async function deepCursor(
  app: App,
  token: string,
  station: number,
  f: Filter,
): Promise<{ cursor: string; position: number } | null> {
  const first = await api(app, token, 'GET', listUrl(station, f));
  const count = first.count ?? 0;
  const capped = Boolean(first.data.count_capped);
  let position = capped ? DEEP : Math.min(DEEP, Math.floor(count * 0.8));
  while (position >= LIMIT * 2) {
    const page = Math.floor(position / LIMIT);
    const answer = await api(app, token, 'GET', `${listUrl(station, f)}&page=${page}`);
    if (answer.data.next) return { cursor: answer.data.next, position: page * LIMIT };
    position = Math.floor(position / 2);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------

const f = await fleet();
const rois = Number(
  (
    (await f.db.kysely
      .selectFrom('rois')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as { n: number | string }
  ).n,
);
const app = await buildApp({
  config: testConfig({ DATA_DIR: f.dataDir, STATS_UTC_OFFSET: 8, FEATURE_WORKERS: 0, SIMILARITY_PRELOAD: 'off' }),
  db: f.db,
  clock: () => f.now,
});
await app.ready();
const login = await app.inject({
  method: 'POST',
  url: '/api/wyrbac/login/login',
  payload: { username: 'bench', password: 'bench-pass' },
});
const token = (login.json() as { data: { token: string } }).data.token;
const raw = await rawDriver(f);

// The generator's classes: 1 takes about 29% of the ROIs, 40 under 1%.
const FILTERS = filters(1, 40);
const lines: string[] = [];
const date = new Date().toISOString().slice(0, 10);
lines.push(
  `${date}, ${os.availableParallelism()} CPUs, Node ${process.version}; ${f.databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${rois.toLocaleString('en')} ROIs (generate.ts: 20 stations, 12 months, 40 classes, telemetry every minute)` +
    (f.generated
      ? `, generated in ${f.generated.total!.toFixed(0)} s (${Object.entries(f.generated)
          .filter(([k]) => k !== 'total')
          .map(([k, s]) => `${k} ${s.toFixed(0)} s`)
          .join(', ')})`
      : '') +
    `; ${RUNS} runs per row over ${STATIONS} stations, ${WARMUP} warm-up runs. API = GET /api/roi/index in process (app.inject, signed in); ` +
    'raw = every statement that call ran, replayed in order on the driver (one connection, no Kysely); page SQL = its page statement alone. ' +
    'Command: `npm run bench:pages' +
    (f.databaseUrl ? ' -- --pg' : '') +
    '`.',
  '',
  '| filter | page | API p50 | API p99 | raw p50 | raw p99 | page SQL p99 | API/raw p99 | deep/page 1 (API p50) |',
  '|---|---|---|---|---|---|---|---|---|',
);
console.log(lines.join('\n'));

for (const filter of FILTERS) {
  const cursors = new Map<number, { cursor: string; position: number } | null>();
  for (let s = 1; s <= STATIONS; s++) cursors.set(s, await deepCursor(app, token, s, filter));
  const positions = [...cursors.values()].filter((c) => c !== null).map((c) => c!.position);
  let firstP50 = 0;
  for (const depth of ['page 1', 'deep'] as const) {
    if (depth === 'deep' && positions.length === 0) {
      const line = `| ${filter.name} | deep | (the list is shorter than two pages) | | | | | | |`;
      lines.push(line);
      console.log(line);
      continue;
    }
    const samples: Sample[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const station = 1 + (i % STATIONS);
      const cursor = cursors.get(station);
      if (depth === 'deep' && !cursor) continue;
      const url = listUrl(station, filter) + (depth === 'deep' ? `&after=${cursor!.cursor}` : '');
      const got = await sample(app, raw, token, url);
      if (i >= WARMUP) samples.push(got);
    }
    const apiP50 = pct(
      samples.map((s) => s.api),
      50,
    );
    if (depth === 'page 1') firstP50 = apiP50;
    const apiP99 = pct(
      samples.map((s) => s.api),
      99,
    );
    const rawP99 = pct(
      samples.map((s) => s.raw),
      99,
    );
    const label =
      depth === 'deep'
        ? `deep (position ${Math.min(...positions).toLocaleString('en')}–${Math.max(...positions).toLocaleString('en')})`
        : 'page 1';
    const line = `| ${filter.name} | ${label} | ${ms(apiP50)} | ${ms(apiP99)} | ${ms(
      pct(
        samples.map((s) => s.raw),
        50,
      ),
    )} | ${ms(rawP99)} | ${ms(
      pct(
        samples.map((s) => s.page),
        99,
      ),
    )} | ${(apiP99 / rawP99).toFixed(2)}× | ${depth === 'deep' ? `${(apiP50 / firstP50).toFixed(2)}` : '—'} |`;
    lines.push(line);
    console.log(line);
  }
}

// Bulk actions on the newest 10,000 live ROIs of station 1, each undone by the next.
const ids = (
  await f.db.kysely
    .selectFrom('rois')
    .select('id')
    .where('ipp_id', '=', 1)
    .where('deleted_at', 'is', null)
    .orderBy('roi_time', 'desc')
    .orderBy('id', 'desc')
    .limit(BULK)
    .execute()
).map((r) => r.id);
const folder = async (title: string) =>
  (await api(app, token, 'POST', '/api/roi-index/save', { title, category_id: 0 })).data.roi_index_id as number;
const stamp = Date.now().toString(36).slice(-4);
const [fa, fb] = [await folder(`100Bulk${stamp}a`), await folder(`101Bulk${stamp}b`)];
const bulk: Record<string, number[]> = {};
const timed = async (name: string, payload: object) => {
  const t0 = performance.now();
  const answer = await api(app, token, 'POST', '/api/roi/save-move', payload);
  (bulk[name] ??= []).push(performance.now() - t0);
  return answer;
};
for (let i = 0; i < BULK_RUNS; i++) {
  await timed('copy 10k into a folder (51)', { type: '51', category_id: -100, roi_ids: ids, target_id: fa });
  await timed('move 10k to another folder (52)', { type: '52', category_id: 0, code: `f:${fa}`, roi_ids: ids, target_id: fb });
  await timed('remove 10k from the folder (53)', { type: '53', category_id: 0, code: `f:${fb}`, roi_ids: ids });
  await timed('recycle 10k (2)', { type: '2', category_id: -1000, roi_ids: ids });
  await timed('restore 10k (113)', { type: '113', category_id: -8, roi_ids: ids });
}
lines.push('', `| bulk action, 10,000 ROIs (${BULK_RUNS} runs) | p50 | max |`, '|---|---|---|');
for (const [name, times] of Object.entries(bulk)) lines.push(`| ${name} | ${ms(pct(times, 50))} | ${ms(Math.max(...times))} |`);
console.log(lines.slice(-2 - Object.keys(bulk).length).join('\n'));

await raw.close();
await app.close();
await f.db.close();

if (flags.write) {
  const marker = `pages-${f.databaseUrl ? 'pg' : 'sqlite'}`;
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const doc = fs.readFileSync(file, 'utf8');
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const block = `${start}\n${lines.join('\n')}\n${end}`;
  const at = doc.indexOf(start);
  const next = at >= 0 ? doc.slice(0, at) + block + doc.slice(doc.indexOf(end) + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
  console.log(`docs/benchmarks.md: ${marker} figures written`);
}
