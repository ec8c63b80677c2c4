/**
 * Overview/detail benchmark (issue 4): the same fleet (10 stations, one year, 8 classes) with 100k and with
 * 10M ROIs. Statistics read rollups, so the busy fleet should answer about as fast as the quiet one
 * (target: ratio ≤ 1.2). Every figure is also given as a multiple of a floor measured in the same run (a
 * signed-in GET that touches no statistics), because these machines are shared and noisy.
 *
 *   npm run bench                 # 100k and 10M (several minutes: loading 10M rows dominates)
 *   npm run bench -- --quick      # 10k and 1M
 *   npm run bench -- --write      # also rewrite the figures in docs/benchmarks.md
 *   npm run bench -- --pg         # on PostgreSQL (fresh databases; the generator of generate.ts, classes skewed)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { buildRoiRollups, seedFleet } from './fleet.ts';
import { freshTarget, generateFleet, type Target } from './generate.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STATIONS = 10;
const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const SPAN_DAYS = 365;

const { values: flags } = parseArgs({
  options: {
    reuse: { type: 'string' },
    keep: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '40' },
    pg: { type: 'boolean', default: false },
  },
});
const sizes = flags.quick ? [10_000, 1_000_000] : [100_000, 10_000_000];
const runs = Number(flags.runs);

const QUERIES: { name: string; url: (devId: string) => string }[] = [
  { name: 'floor: GET /wyrbac/login/user-info', url: () => '/api/wyrbac/login/user-info' },
  { name: 'overview: /views/roi24', url: () => '/api/views/roi24' },
  { name: 'overview: /views/roi30', url: () => '/api/views/roi30?tz=480' },
  { name: 'overview: /views/wall', url: () => '/api/views/wall' },
  { name: 'overview: /ipp/index', url: () => '/api/ipp/index' },
  { name: 'detail: get-site-roi 24h', url: (d) => `/api/roi/get-site-roi?dev_id=${d}&period=24h&tz=480` },
  { name: 'detail: get-site-roi 7d', url: (d) => `/api/roi/get-site-roi?dev_id=${d}&period=7d&tz=480` },
  { name: 'detail: get-site-roi 1m', url: (d) => `/api/roi/get-site-roi?dev_id=${d}&period=1m&tz=480` },
  { name: 'detail: get-site-roi 1y', url: (d) => `/api/roi/get-site-roi?dev_id=${d}&period=1y&tz=480` },
  { name: 'detail: get-site-roi all', url: (d) => `/api/roi/get-site-roi?dev_id=${d}&period=all&tz=480` },
  { name: 'ecology: 24h, every class', url: (d) => `/api/ecology/get-site-ecology?dev_id=${d}&period=24h&tz=480` },
  { name: 'ecology: 1m, every class', url: (d) => `/api/ecology/get-site-ecology?dev_id=${d}&period=1m&tz=480` },
  { name: 'ecology: 1y, every class', url: (d) => `/api/ecology/get-site-ecology?dev_id=${d}&period=1y&tz=480` },
  { name: 'ecology: 1y, two classes', url: (d) => `/api/ecology/get-site-ecology?dev_id=${d}&period=1y&tz=480&classes=1,2` },
];

async function load(db: Db, rois: number) {
  const k = db.kysely;
  await seedFleet(k, STATIONS, NOW);
  const start = NOW - SPAN_DAYS * DAY;
  // Rows generated inside SQLite: station, time and class from independent multiplicative hashes of the row number
  // (high bits, so they are not correlated), spread uniformly over the whole year at every size.
  const hash = (mult: number) => sql`((x * ${sql.lit(mult)}) % 4294967296)`;
  await sql`
    with recursive seq(x) as (select 1 union all select x + 1 from seq where x < ${sql.lit(rois)})
    insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex, confidence, class_id, favorite_at,
                      biovolume_px3)
    select 1 + (${hash(3266489917)} / 65536) % ${sql.lit(STATIONS)},
           ${sql.lit(start)} + cast(${hash(2654435761)} * ${sql.raw(String((SPAN_DAYS * DAY) / 2 ** 32))} as integer),
           ${sql.lit(NOW)},
           printf('%064x', x), 'image/png', 9000, 120, 90, 2400,
           1 + (${hash(2246822519)} / 65536) % 8, 0.9, 1 + (${hash(2246822519)} / 65536) % 8,
           case when x % ${sql.lit(Math.max(1, Math.floor(rois / 300)))} = 0 then ${sql.lit(NOW)} - x else null end,
           exp((4 + 20.0 * ${hash(668265263)} / 4294967296.0) * 0.6931471805599453)
    from seq`.execute(k);
  // Rollups as ingest would have left them (the rollup property test proves ingest keeps them equal to this).
  await buildRoiRollups(k);
  await telemetryRollups(db);
}

/** On PostgreSQL: the same fleet from the shared generator (its classes skewed), plus the telemetry rollups. */
async function loadPg(db: Db, rois: number) {
  await generateFleet(db, { rois, stations: STATIONS, classes: 8, days: SPAN_DAYS, now: NOW, telemetry: false });
  await telemetryRollups(db);
}

async function telemetryRollups(db: Db) {
  const k = db.kysely;
  const start = NOW - SPAN_DAYS * DAY;
  // Hourly telemetry for the whole year (the same in both sizes).
  await sql`
    with recursive h(t) as (select ${sql.lit(start)} union all select t + ${sql.lit(HOUR)} from h where t + ${sql.lit(HOUR)} < ${sql.lit(NOW)})
    insert into telemetry_rollup_hour (ipp_id, hour, samples, temp_n, temp_sum, temp_min, temp_max, hum_n, hum_sum, volume_l)
    select i.id, h.t, 12, 12, 12 * 17.0, 15.0, 19.0, 12, 12 * 45.0, 30.0 from h cross join ipps i`.execute(k);
  await sql`insert into telemetry_rollup_day (ipp_id, day, samples, temp_n, temp_sum, temp_min, temp_max, hum_n, hum_sum, volume_l)
    select ipp_id, ((hour + ${sql.lit(8 * HOUR)}) / ${sql.lit(DAY)}) * ${sql.lit(DAY)} - ${sql.lit(8 * HOUR)},
           sum(samples), sum(temp_n), sum(temp_sum), min(temp_min), max(temp_max), sum(hum_n), sum(hum_sum), sum(volume_l)
    from telemetry_rollup_hour group by 1, 2`.execute(k);
  await sql`analyze`.execute(k);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

interface Loaded {
  rois: number;
  dir: string;
  db: Db;
  app: Awaited<ReturnType<typeof buildApp>>;
  token: string;
  /** PostgreSQL: the database, dropped at the end. */
  target?: Target;
}

/** `--keep` leaves the loaded databases; `--reuse small,large` measures them again without loading. */
const reused = flags.reuse?.split(',');

async function prepare(rois: number, index: number): Promise<Loaded> {
  let dir: string;
  let db: Db;
  let target: Target | undefined;
  if (flags.pg) {
    target = await freshTarget('postgres', `overview${index}`);
    dir = target.dataDir;
    db = target.db;
  } else {
    dir = reused?.[index] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-'));
    db = openDatabase({ dataDir: dir });
  }
  if (flags.pg) {
    const t0 = performance.now();
    await loadPg(db, rois);
    console.log(
      `  loaded ${rois.toLocaleString('en')} ROIs in ${((performance.now() - t0) / 1000).toFixed(1)} s (${target!.describe})`,
    );
  } else if (!reused) {
    await migrateToLatest(db);
    const t0 = performance.now();
    await load(db, rois);
    console.log(`  loaded ${rois.toLocaleString('en')} ROIs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const app = await buildApp({ config: testConfig({ DATA_DIR: dir, STATS_UTC_OFFSET: 8 }), db, clock: () => NOW });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/wyrbac/login/login',
    payload: { username: 'bench', password: 'bench-pass' },
  });
  const token = (login.json() as { data: { token: string } }).data.token;
  return { rois, dir, db, app, token, target };
}

async function time(target: Loaded, url: string, name: string) {
  const started = performance.now();
  const res = await target.app.inject({ method: 'GET', url, headers: { 'x-token': target.token } });
  const took = performance.now() - started;
  if ((res.json() as { code: number }).code !== 1000) throw new Error(`${name}: ${res.body}`);
  return took;
}

/**
 * Both databases are open at once and every query alternates between them, so a noisy neighbour slows both
 * sides of a ratio alike.
 */
async function measureBoth(a: Loaded, b: Loaded) {
  const out = new Map<string, [number, number]>();
  for (const q of QUERIES) {
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < runs + 5; i++) {
      const url = q.url(`B${1 + (i % STATIONS)}`);
      const first = i % 2 === 0 ? a : b;
      const second = first === a ? b : a;
      const t1 = await time(first, url, q.name);
      const t2 = await time(second, url, q.name);
      if (i < 5) continue;
      times[first === a ? 0 : 1].push(t1);
      times[second === a ? 0 : 1].push(t2);
    }
    out.set(q.name, [median(times[0]), median(times[1])]);
  }
  return out;
}

async function release(target: Loaded) {
  await target.app.close();
  if (target.target) {
    await target.target.drop();
    return;
  }
  await target.db.close();
  if (flags.keep || reused) console.log(`  kept ${target.dir}`);
  else fs.rmSync(target.dir, { recursive: true, force: true });
}

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const [small, large] = sizes as [number, number];
console.log(
  `Overview/detail benchmark: ${STATIONS} stations, ${SPAN_DAYS} days, viewers at UTC+8 = statistics days, ${flags.pg ? 'PostgreSQL' : 'SQLite'}, ${runs} runs per query (median)`,
);
console.log(`- ${label(small)}`);
const small_ = await prepare(small, 0);
console.log(`- ${label(large)}`);
const large_ = await prepare(large, 1);
const results = await measureBoth(small_, large_);
await release(small_);
await release(large_);
const floorName = QUERIES[0]!.name;
const [floorA, floorB] = results.get(floorName)!;
const ratios = new Map<string, number>();
const rows = QUERIES.map((q) => {
  const [ta, tb] = results.get(q.name)!;
  const ratio = tb / ta;
  ratios.set(q.name, ratio);
  return `| ${q.name} | ${ta.toFixed(2)} ms (${(ta / floorA).toFixed(2)}× floor) | ${tb.toFixed(2)} ms (${(tb / floorB).toFixed(2)}× floor) | ${ratio.toFixed(2)} |`;
});
const table = [
  `| query (median) | ${label(small)} ROIs | ${label(large)} ROIs | ratio ${label(large)}/${label(small)} |`,
  '|---|---|---|---|',
  ...rows,
].join('\n');
console.log(`\n${table}\n`);
const worst = Math.max(...QUERIES.slice(1).map((q) => ratios.get(q.name)!));
console.log(`Worst ratio ${worst.toFixed(2)} (target ≤ 1.2): ${worst <= 1.2 ? 'met' : 'NOT met'}`);

if (flags.write) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../docs/benchmarks.md');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const marker = flags.pg ? 'overview-detail-pg' : 'overview-detail';
  const section = `<!-- ${marker}:start -->\n${new Date(Date.now()).toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}, ${flags.pg ? 'PostgreSQL' : 'SQLite'}; worst ratio ${worst.toFixed(2)} (target ≤ 1.2).\n\n${table}\n<!-- ${marker}:end -->`;
  const updated = text.includes(`<!-- ${marker}:start -->`)
    ? text.replace(new RegExp(`<!-- ${marker}:start -->[\\s\\S]*<!-- ${marker}:end -->`), section)
    : `${text.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, updated);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
