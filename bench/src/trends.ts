/**
 * Engineering-trend benchmark (issue 23): a year of one-minute telemetry of 20 stations (10.5M samples, every
 * numeric series), stored in the telemetry table and rolled up as the ingest does (migration 0019's statement, which
 * the trends test proves equal to the ingest's rollups). Each chart of GET /ipp/telemetry-trend is timed against a
 * floor measured in the same run (a signed-in GET that touches no statistics). Target: a year draws well under a
 * second (< 100 ms here), i.e. its cost follows the chart's buckets, not the samples.
 *
 *   npm run bench:trends                 # 20 stations × 365 days (loading ~10.5M samples takes a few minutes)
 *   npm run bench:trends -- --quick      # 20 stations × 30 days
 *   npm run bench:trends -- --write      # also rewrite the figures in docs/benchmarks.md
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.ts';
import { testConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { telemetryTrendsMigration } from '../../apps/server/src/db/migrations/0019-telemetry-trends.ts';
import { seedFleet } from './fleet.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const STATIONS = 20;
const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    runs: { type: 'string', default: '40' },
  },
});
const days = flags.quick ? 30 : 365;
const runs = Number(flags.runs);

const QUERIES: { name: string; url: (devId: string) => string }[] = [
  { name: 'floor: GET /wyrbac/login/user-info', url: () => '/api/wyrbac/login/user-info' },
  { name: 'trend 24h (24 hour buckets)', url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=24h&points=24&tz=480` },
  { name: 'trend 7d (168 hour buckets)', url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=7d&points=168&tz=480` },
  { name: 'trend 1m (240 3-hour buckets)', url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=1m&points=240&tz=480` },
  { name: 'trend 3m (90 day buckets)', url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=3m&points=90&tz=480` },
  { name: 'trend 1y (365 day buckets)', url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=1y&points=365&tz=480` },
  {
    name: 'trend 1y (default 168 points: 73 5-day buckets)',
    url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=1y&tz=480`,
  },
  { name: 'trend all', url: (d) => `/api/ipp/telemetry-trend?dev_id=${d}&period=all&tz=480` },
  { name: 'completeness 7d (168 hour buckets)', url: (d) => `/api/ipp/completeness?dev_id=${d}&period=7d&points=168&tz=480` },
  { name: 'completeness 1y (365 days of 24 hours)', url: (d) => `/api/ipp/completeness?dev_id=${d}&period=1y&points=365&tz=480` },
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-bench-trends-'));
const db = openDatabase({ dataDir: dir });
await migrateToLatest(db);
const k = db.kysely;
await seedFleet(k, STATIONS, NOW);
await k.insertInto('rollup_meta').values({ key: 'day_offset_hours', value: '8' }).execute();

const t0 = performance.now();
const start = NOW - days * DAY;
// One sample a minute per station; values with a daily cycle (minute of day) and a slow drift (day of the span).
await sql`
  with recursive m(x) as (select 0 union all select x + 1 from m where x + 1 < ${sql.lit(days * 1440)})
  insert into telemetry (ipp_id, at, received_at, temperature_c, humidity_pct, volume_5min_ml, volume_total_l, ram_mb,
    storage_gb, cpu_temp_c, gpu_temp_c, wiper_state, wiper_clean_count, uvc_port_frequency_hz, uvc_port_duty_pct,
    uvc_illuminator_frequency_hz, uvc_illuminator_duty_pct, uvc_voltage_v, uvc_current_a, lp_current_a, lp_voltage_v,
    lp_temperature_c, cb_current_a, cb_voltage_v)
  select i.id, ${sql.lit(start)} + m.x * ${sql.lit(MIN)}, ${sql.lit(start)} + m.x * ${sql.lit(MIN)},
    15 + (m.x % 1440) / 240.0 + i.id / 10.0, 40 + (m.x / 1440) / 36.5, 50 + (m.x % 7), m.x * 0.01, 2000 + (m.x % 300),
    500 - (m.x / 1440) * 1.2, 45 + (m.x % 1440) / 100.0, 50 + (m.x % 1440) / 90.0,
    case when m.x % 60 = 0 then 'cleaning' else 'idle' end, m.x / 60, 1000, 50, 1000, case when m.x % 1440 < 720 then 30 else 0 end,
    12 + (m.x % 5) / 10.0, 0.4 + (m.x % 3) / 100.0, 0.3 + (m.x % 11) / 100.0, 12.1, 20 + (m.x % 1440) / 144.0,
    1.2 + (m.x % 13) / 100.0, 19.5 + (m.x % 7) / 10.0
  from m cross join ipps i`.execute(k);
const samples = Number((await sql<{ n: number }>`select count(*) as n from telemetry`.execute(k)).rows[0]!.n);
const t1 = performance.now();
// The rollups as the ingest leaves them: migration 0019 rolls the stored telemetry up with the same sums.
const migration = telemetryTrendsMigration('sqlite');
await migration.down(k as never);
await migration.up(k as never);
// The statistics' own telemetry rollup too (the "all" period starts at its first hour).
await sql`insert into telemetry_rollup_hour (ipp_id, hour, samples, temp_n, temp_sum, temp_min, temp_max, hum_n, hum_sum, volume_l)
  select ipp_id, hour, samples, temperature_c_n, temperature_c_sum, temperature_c_min, temperature_c_max, humidity_pct_n,
    humidity_pct_sum, 0 from telemetry_trend_hour`.execute(k);
// Completeness as the ingest leaves it: every station-hour online and sampling, one image in 30 lost.
await sql`insert into completeness_hour (ipp_id, hour, online_s, sampling_s, frames_expected, expected, expected_reports, received)
  select ipp_id, hour, samples * 60, samples * 60, samples * 180, 30, samples, 29 from telemetry_trend_hour`.execute(k);
await sql`analyze`.execute(k);
const hours = Number((await sql<{ n: number }>`select count(*) as n from telemetry_trend_hour`.execute(k)).rows[0]!.n);
console.log(
  `Loaded ${samples.toLocaleString('en')} samples in ${((t1 - t0) / 1000).toFixed(1)} s, rolled up into ${hours.toLocaleString('en')} station-hours in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
);

const app = await buildApp({ config: testConfig({ DATA_DIR: dir, STATS_UTC_OFFSET: 8 }), db, clock: () => NOW });
await app.ready();
const login = await app.inject({
  method: 'POST',
  url: '/api/wyrbac/login/login',
  payload: { username: 'bench', password: 'bench-pass' },
});
const token = (login.json() as { data: { token: string } }).data.token;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = new Map<string, number>();
// Queries interleaved run by run, so a noisy neighbour slows the floor and the trends alike.
const times = new Map(QUERIES.map((q) => [q.name, [] as number[]]));
for (let i = 0; i < runs + 5; i++) {
  for (const q of QUERIES) {
    const url = q.url(`B${1 + (i % STATIONS)}`);
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { 'x-token': token } });
    const took = performance.now() - started;
    if ((res.json() as { code: number }).code !== 1000) throw new Error(`${q.name}: ${res.body}`);
    if (i >= 5) times.get(q.name)!.push(took);
  }
}
for (const q of QUERIES) results.set(q.name, median(times.get(q.name)!));
await app.close();
await db.close();
fs.rmSync(dir, { recursive: true, force: true });

const floor = results.get(QUERIES[0]!.name)!;
const table = [
  `| query (median of ${runs}) | time | × floor |`,
  '|---|---|---|',
  ...QUERIES.map((q) => `| ${q.name} | ${results.get(q.name)!.toFixed(2)} ms | ${(results.get(q.name)! / floor).toFixed(1)}× |`),
].join('\n');
const worst = Math.max(...QUERIES.slice(1).map((q) => results.get(q.name)!));
const summary = `${STATIONS} stations × ${days} days of one-minute telemetry (${samples.toLocaleString('en')} samples); slowest chart ${worst.toFixed(1)} ms (target < 100 ms): ${worst < 100 ? 'met' : 'NOT met'}`;
console.log(`\n${table}\n\n${summary}`);

if (flags.write) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../docs/benchmarks.md');
  const text = fs.readFileSync(file, 'utf8');
  const marker = 'telemetry-trends';
  const section = `<!-- ${marker}:start -->\n${new Date(Date.now()).toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}, SQLite. ${summary}.\n\n${table}\n<!-- ${marker}:end -->`;
  const updated = text.includes(`<!-- ${marker}:start -->`)
    ? text.replace(new RegExp(`<!-- ${marker}:start -->[\\s\\S]*<!-- ${marker}:end -->`), section)
    : `${text.trimEnd()}\n\n## Engineering trends: a year of one-minute telemetry, 20 stations (issue 23)\n\n${section}\n`;
  fs.writeFileSync(file, updated);
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}
