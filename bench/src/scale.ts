/**
 * Capacity plan, issue 39: the identify and statistics pages on PostgreSQL at several fleet sizes (fleets made by
 * generate.ts: 20 stations, 12 months, 40 skewed classes, telemetry every minute), every call alternating between the
 * sizes so a noisy neighbour slows them alike; medians as multiples of a floor measured in the same run (a signed-in
 * GET that reads no ROI); a least-squares fit of log(time) on log(ROIs) per page, read out at 100M and 1B; the
 * database's bytes per ROI. `--partition` then tries monthly range partitioning of the ROI table on the largest fleet:
 * a partitioned copy, the identify pages' own SQL replayed against both tables, and dropping a month both ways.
 *
 *   npm run bench:generate -w bench -- --rois 30000000 --pg      # once per size; prints each DATABASE_URL
 *   npm run bench:scale -w bench -- --reuse <url1M>,<url10M>,<url30M> [--runs 40] [--partition]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { tryPartitioning } from './partition-trial.ts';
import { IDENTIFY, findDeep, get, openFleet, type Fleet, type Page, median, ms } from './scale-fleet.ts';

const { values: flags } = parseArgs({
  options: {
    reuse: { type: 'string' },
    runs: { type: 'string', default: '40' },
    partition: { type: 'boolean', default: false },
  },
});
if (!flags.reuse) throw new Error('--reuse <postgres url>,<postgres url>,… (fleets made by bench:generate --pg)');
const RUNS = Number(flags.runs);
const WARMUP = 5;
const STATIONS = 10;

const PAGES: Page[] = [
  { name: 'floor: GET /wyrbac/login/user-info', url: () => '/api/wyrbac/login/user-info' },
  ...IDENTIFY,
  { name: 'statistics: overview /views/roi24', url: () => '/api/views/roi24' },
  { name: 'statistics: overview /views/roi30', url: () => '/api/views/roi30?tz=480' },
  { name: 'statistics: stations /ipp/index', url: () => '/api/ipp/index' },
  { name: 'statistics: station, 24 h', url: (_f, s) => `/api/roi/get-site-roi?dev_id=B${s}&period=24h&tz=480` },
  { name: 'statistics: station, 1 month', url: (_f, s) => `/api/roi/get-site-roi?dev_id=B${s}&period=1m&tz=480` },
  { name: 'statistics: station, 1 year', url: (_f, s) => `/api/roi/get-site-roi?dev_id=B${s}&period=1y&tz=480` },
  { name: 'statistics: station, all time', url: (_f, s) => `/api/roi/get-site-roi?dev_id=B${s}&period=all&tz=480` },
  { name: 'statistics: ecology, 1 year', url: (_f, s) => `/api/ecology/get-site-ecology?dev_id=B${s}&period=1y&tz=480` },
];

const label = (n: number) => (n >= 1e9 ? `${n / 1e9}B` : n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : `${n / 1e3}k`);

/** Least squares of log t on log n: t = a·n^b. */
function powerFit(ns: number[], ts: number[]) {
  const xs = ns.map(Math.log);
  const ys = ts.map(Math.log);
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = ys.reduce((s, y) => s + y, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
  });
  const b = sxx > 0 ? sxy / sxx : 0;
  const a = Math.exp(my - b * mx);
  return { b, at: (n: number) => a * n ** b };
}

/** The database's bytes: the ROI table with its indexes, the rollups, telemetry, and the whole database. */
async function sizes(f: Fleet) {
  const r = await sql<{ rois: string; rollups: string; telemetry: string; total: string }>`
    select pg_total_relation_size('rois') as rois,
           pg_total_relation_size('roi_rollup_hour') + pg_total_relation_size('roi_rollup_day') as rollups,
           pg_total_relation_size('telemetry') as telemetry,
           pg_database_size(current_database()) as total`.execute(f.db.kysely);
  const row = r.rows[0]!;
  return { rois: Number(row.rois), rollups: Number(row.rollups), telemetry: Number(row.telemetry), total: Number(row.total) };
}

const fleets: Fleet[] = [];
for (const url of flags.reuse.split(',')) fleets.push(await openFleet(url));
fleets.sort((a, b) => a.rois - b.rois);
for (const f of fleets) for (let s = 1; s <= STATIONS; s++) await findDeep(f, s);
console.log(
  `${new Date().toISOString().slice(0, 10)}, ${os.availableParallelism()} CPUs, Node ${process.version}; PostgreSQL; fleets of ` +
    `${fleets.map((f) => label(f.rois)).join(', ')} ROIs (generate.ts: 20 stations, 12 months, 40 classes); ` +
    `${RUNS} runs per page over ${STATIONS} stations after ${WARMUP} warm-up runs, the fleets alternating call by call.`,
);

const medians = new Map<string, number[]>();
for (const page of PAGES) {
  const times = fleets.map(() => [] as number[]);
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const station = 1 + (i % STATIONS);
    // Rotate which fleet goes first.
    for (let k = 0; k < fleets.length; k++) {
      const j = (i + k) % fleets.length;
      const f = fleets[j]!;
      const t0 = performance.now();
      await get(f, page.url(f, station));
      if (i >= WARMUP) times[j]!.push(performance.now() - t0);
    }
  }
  medians.set(page.name, times.map(median));
}

const floor = medians.get(PAGES[0]!.name)!;
const ns = fleets.map((f) => f.rois);
console.log(
  `\n| page (median) | ${fleets.map((f) => `${label(f.rois)} ROIs`).join(' | ')} | growth exponent b | fit at 100M | fit at 1B |`,
);
console.log(`|---|${fleets.map(() => '---|').join('')}---|---|---|`);
for (const page of PAGES) {
  const m = medians.get(page.name)!;
  const cells = m.map((t, i) => (i === 0 && page === PAGES[0] ? ms(t) : `${ms(t)} (${(t / floor[i]!).toFixed(1)}×)`));
  if (page === PAGES[0]) {
    console.log(`| ${page.name} | ${m.map(ms).join(' | ')} | — | — | — |`);
    continue;
  }
  // Fitted on the floor-relative times, read out in today's floor.
  const fit = powerFit(
    ns,
    m.map((t, i) => t / floor[i]!),
  );
  const base = floor[floor.length - 1]!;
  console.log(
    `| ${page.name} | ${cells.join(' | ')} | ${fit.b.toFixed(2)} | ${ms(fit.at(1e8) * base)} | ${ms(fit.at(1e9) * base)} |`,
  );
}

console.log('\n| fleet | ROI table + indexes | per ROI | rollups | telemetry | whole database |');
console.log('|---|---|---|---|---|---|');
const gb = (b: number) => `${(b / 1e9).toFixed(2)} GB`;
for (const f of fleets) {
  const s = await sizes(f);
  console.log(
    `| ${label(f.rois)} | ${gb(s.rois)} | ${(s.rois / f.rois).toFixed(0)} B | ${gb(s.rollups)} | ${gb(s.telemetry)} | ${gb(s.total)} |`,
  );
}

if (flags.partition) await tryPartitioning(fleets[fleets.length - 1]!, RUNS, STATIONS);

for (const f of fleets) {
  await f.app.close();
  await f.db.close();
}
