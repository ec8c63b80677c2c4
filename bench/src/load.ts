/**
 * Load and scale-out benchmark: the real server (one or two processes, `apps/server/src/main.ts` as `npm start` runs
 * it) on a generated fleet, driven over HTTP on loopback.
 *
 * Mixed load (the concurrency figure): `--users` simulated users browsing (sign in once, then page through
 * the identify browser with its filters, open the class tree, the overview and a station's statistics, with a think
 * time between calls) while `--instruments` simulated instruments ingest real images (POST /api/device/rois, one
 * every 1/rate s each, and a telemetry sample every 30th) — for `--seconds`. Answers p50/p99 of each call, the
 * errors (anything but HTTP 200 with code 1000), the ROIs acknowledged, and every server process's RSS and open
 * file descriptors sampled each second.
 *
 * Throughput (`--throughput`, the scale-out figure): closed-loop clients calling the ROI page (no think time, no
 * ingest) against one process and against two processes on the same database (round robin, as a reverse proxy),
 * alternating phases; the ratio of calls per second is what the second process buys on this machine.
 *
 *   npm run bench:load                                   # SQLite, 1M ROIs, 50 users + 20 instruments, 60 s
 *   npm run bench:load -- --pg --processes 2             # the same on PostgreSQL, two server processes
 *   npm run bench:load -- --pg --throughput              # page calls/s, 1 vs 2 processes
 *   npm run bench:load -- --seconds 2400 --warmup 1200 --rois 100000 --write  # the soak (issue 8): 20 min warm-up, 20 min judged
 *   --rois N  --seconds S  --users U  --instruments I  --rate R (ROIs/s per instrument)  --think MS  --write
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatCpu, startCpu } from './cpu.ts';
import { deviceKeyOf, freshTarget, generateFleet, type Target } from './generate.ts';
import { loadImages, roiMultipart, variant } from './images.ts';
import { envelope, percentile, repoRoot, request, signIn, startServerProcess, type ServerProcess } from './server-process.ts';

const { values: flags } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    rois: { type: 'string', default: '1000000' },
    stations: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '60' },
    users: { type: 'string', default: '50' },
    instruments: { type: 'string', default: '20' },
    rate: { type: 'string', default: '2' },
    think: { type: 'string', default: '1000' },
    processes: { type: 'string', default: '1' },
    throughput: { type: 'boolean', default: false },
    clients: { type: 'string', default: '16' },
    phases: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
    /** Seconds of the run not judged for memory (caches filling, heap sizing); default: the first fifth. */
    warmup: { type: 'string' },
  },
});

const STATIONS = Number(flags.stations);
const CLASSES = 40;
const NOW = Date.now();

interface Fleet {
  target: Target;
  servers: ServerProcess[];
}

async function prepare(processes: number): Promise<Fleet> {
  const target = await freshTarget(flags.pg ? 'postgres' : 'sqlite', 'load');
  const t0 = performance.now();
  await generateFleet(target.db, {
    rois: Number(flags.rois),
    stations: STATIONS,
    classes: CLASSES,
    days: 365,
    now: NOW,
    telemetry: false,
    users: Math.max(Number(flags.users), Number(flags.clients)),
  });
  await target.db.close();
  console.log(
    `  ${target.describe}: ${Number(flags.rois).toLocaleString('en')} ROIs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const servers: ServerProcess[] = [];
  for (let i = 0; i < processes; i++) {
    servers.push(
      await startServerProcess({
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        // One process works the job queue; a second answers calls only (docs/deployment.md).
        env: { JOB_WORKER: i === 0 ? 'on' : 'off', SIMILARITY_PRELOAD: 'off' },
      }),
    );
  }
  return { target, servers };
}

const rnd = (n: number) => Math.floor(Math.random() * n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A skewed class (the generator's skew): most users look at the common ones. */
const someClass = () => 1 + Math.floor(CLASSES * Math.random() ** 3);

interface Tally {
  times: Map<string, number[]>;
  errors: Map<string, number>;
  samples: string[];
}

function record(t: Tally, kind: string, ms: number, ok: boolean, detail: string) {
  if (!t.times.has(kind)) t.times.set(kind, []);
  t.times.get(kind)!.push(ms);
  if (!ok) {
    t.errors.set(kind, (t.errors.get(kind) ?? 0) + 1);
    if (t.samples.length < 10) t.samples.push(`${kind}: ${detail.slice(0, 300)}`);
  }
}

async function timedCall(t: Tally, kind: string, url: string, options: Parameters<typeof request>[1] = {}): Promise<unknown> {
  const started = performance.now();
  try {
    const answer = await request(url, options);
    const ms = performance.now() - started;
    let data: unknown = null;
    let ok = answer.status === 200;
    if (ok) {
      const e = envelope(answer);
      ok = e.code === 1000;
      data = e.data;
    }
    record(t, kind, ms, ok, `${answer.status} ${answer.body.toString()}`);
    return ok ? data : null;
  } catch (error) {
    record(t, kind, performance.now() - started, false, String(error));
    return null;
  }
}

/** The list filters a user picks for page 1 of a station (the identify browser's). */
const FILTERS = ['', '', `&code=t:ai:c:`, '&Roi_time_s=-31%20day', '&diysort=size&sorttype=asc'];

async function user(servers: ServerProcess[], index: number, until: number, t: Tally, think: number) {
  const base = () => servers[rnd(servers.length)]!.url;
  const token = await signIn(servers[index % servers.length]!.url, `bench-user-${index + 1}`, 'bench-pass');
  const headers = { 'x-token': token };
  let station = 1 + rnd(STATIONS);
  let query = '';
  let next: string | null = null;
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.6) {
      if (next && Math.random() < 0.7) {
        const page = (await timedCall(t, 'page (next, by cursor)', `${base()}/api/roi/index?${query}&after=${next}`, {
          headers,
        })) as { next: string | null } | null;
        next = page?.next ?? null;
      } else {
        station = 1 + rnd(STATIONS);
        let filter = FILTERS[rnd(FILTERS.length)]!;
        if (filter.endsWith(':')) filter += String(someClass());
        query = `category_id=-100&ipp_id=${station}&limit=200${filter}`;
        const page = (await timedCall(t, 'page 1', `${base()}/api/roi/index?${query}`, { headers })) as {
          next: string | null;
        } | null;
        next = page?.next ?? null;
      }
    } else if (roll < 0.75) {
      await timedCall(t, 'class tree', `${base()}/api/roi-index/index?category_id=-100&ipp_id=${station}`, { headers });
    } else if (roll < 0.9) {
      const which = rnd(3);
      const url = ['/api/views/roi24', '/api/ipp/index', '/api/views/roi30?tz=480'][which]!;
      await timedCall(t, 'overview', `${base()}${url}`, { headers });
    } else {
      const period = ['24h', '7d', '1m', '1y'][rnd(4)]!;
      await timedCall(t, 'station statistics', `${base()}/api/roi/get-site-roi?dev_id=B${station}&period=${period}&tz=480`, {
        headers,
      });
    }
    if (think > 0) await sleep(think * (0.5 + Math.random()));
  }
}

async function instrument(
  servers: ServerProcess[],
  station: number,
  until: number,
  t: Tally,
  rate: number,
  images: Buffer[],
  acked: Set<string>,
) {
  const headers = { 'x-device-key': deviceKeyOf(station) };
  let n = 0;
  const interval = 1000 / rate;
  let due = Date.now() + Math.random() * interval;
  while (Date.now() < until) {
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    due += interval;
    n++;
    const server = servers[(station + n) % servers.length]!;
    const image = variant(images[(station * 7 + n) % images.length]!, station * 1_000_000 + n);
    const form = roiMultipart({ captured_at: Date.now() - 1000, label_index: 0, size_px: 1000 + n }, image);
    const ack = (await timedCall(t, 'ingest ROI', `${server.url}/api/device/rois`, {
      method: 'POST',
      headers: { ...headers, 'content-type': form.contentType },
      body: form.body,
    })) as { roi_id: number } | null;
    if (ack) acked.add(`${station}:${ack.roi_id}`);
    if (n % 30 === 0) {
      await timedCall(t, 'telemetry', `${server.url}/api/device/telemetry`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ at: Date.now(), temperature_c: 14.2, humidity_pct: 51, volume_5min_ml: 480, cpu_temp_c: 52 }),
      });
    }
  }
}

interface Sampled {
  rss: number[][];
  /** Anonymous resident memory (the process's own) and file-backed resident memory (mapped files), once a second. */
  anon: number[][];
  file: number[][];
  fds: number[][];
  /** JavaScript heap in use, every 30 s (a diagnostic report each). */
  heap: number[][];
}

function sampler(servers: ServerProcess[]) {
  const s: Sampled = {
    rss: servers.map(() => []),
    anon: servers.map(() => []),
    file: servers.map(() => []),
    fds: servers.map(() => []),
    heap: servers.map(() => []),
  };
  const heapTimer = setInterval(() => {
    servers.forEach((srv, i) => {
      void srv.heapUsedMb().then((mb) => {
        if (mb !== null) s.heap[i]!.push(mb);
      });
    });
  }, 30_000);
  const timer = setInterval(() => {
    servers.forEach((srv, i) => {
      try {
        const m = srv.memoryMb();
        s.rss[i]!.push(m.rss);
        s.anon[i]!.push(m.anon);
        s.file[i]!.push(m.file);
        s.fds[i]!.push(srv.fds());
      } catch {
        // The process is gone; the errors will say so.
      }
    });
  }, 1000);
  return {
    s,
    stop: () => {
      clearInterval(timer);
      clearInterval(heapTimer);
    },
  };
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

async function mixed() {
  const processes = Number(flags.processes);
  const seconds = Number(flags.seconds);
  const users = Number(flags.users);
  const instruments = Math.min(Number(flags.instruments), STATIONS);
  const rate = Number(flags.rate);
  const think = Number(flags.think);
  console.log(
    `Mixed load: ${users} users (think ${think} ms) + ${instruments} instruments (${rate} ROI/s each) for ${seconds} s, ` +
      `${processes} server process(es) on ${flags.pg ? 'PostgreSQL' : 'SQLite'}`,
  );
  const fleet = await prepare(processes);
  const { images, source } = await loadImages();
  const rssBefore = fleet.servers.map((s) => s.rssMb());
  const fdsBefore = fleet.servers.map((s) => s.fds());
  const t: Tally = { times: new Map(), errors: new Map(), samples: [] };
  const acked = new Set<string>();
  const sampling = sampler(fleet.servers);
  const started = Date.now();
  const until = started + seconds * 1000;
  await Promise.all([
    ...Array.from({ length: users }, (_, i) => user(fleet.servers, i, until, t, think)),
    ...Array.from({ length: instruments }, (_, i) => instrument(fleet.servers, i + 1, until, t, rate, images, acked)),
  ]);
  const elapsed = (Date.now() - started) / 1000;
  sampling.stop();
  // Every acknowledged ROI is in the database.
  const check = await freshDbCount(fleet);
  const lines: string[] = [];
  lines.push(
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}; ${flags.pg ? 'PostgreSQL' : 'SQLite'}, ` +
      `${Number(flags.rois).toLocaleString('en')} generated ROIs over ${STATIONS} stations and ${CLASSES} classes; ` +
      `${processes} server process(es); ${users} users (think time ${think / 2}–${(think * 3) / 2} ms) and ${instruments} instruments ` +
      `(${rate} ROIs/s each, ${source}) for ${elapsed.toFixed(0)} s.`,
    '',
    '| call | calls | calls/s | p50 | p99 | max | errors |',
    '|---|---|---|---|---|---|---|',
  );
  let errors = 0;
  for (const [kind, times] of [...t.times].sort()) {
    const e = t.errors.get(kind) ?? 0;
    errors += e;
    lines.push(
      `| ${kind} | ${times.length} | ${(times.length / elapsed).toFixed(1)} | ${ms(percentile(times, 50))} ms | ` +
        `${ms(percentile(times, 99))} ms | ${ms(Math.max(...times))} ms | ${e} |`,
    );
  }
  const pages = [...(t.times.get('page 1') ?? []), ...(t.times.get('page (next, by cursor)') ?? [])];
  lines.push(
    '',
    `All page calls: ${pages.length}, p50 ${ms(percentile(pages, 50))} ms, p99 ${ms(percentile(pages, 99))} ms. ` +
      `Errors: ${errors}. ROIs acknowledged: ${acked.size}, found in the database afterwards: ${check.found} of them ` +
      `(${check.missing} missing).`,
  );
  let leaking = false;
  // The database file at the end (SQLite): mapped pages of it are part of RSS (mmap_size), bounded by its size.
  const dbFile = path.join(fleet.target.dataDir, 'ipp-console.sqlite');
  const dbMb = !flags.pg && fs.existsSync(dbFile) ? fs.statSync(dbFile).size / 1024 / 1024 : 0;
  const signed = (v: number, digits = 2) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
  fleet.servers.forEach((_, i) => {
    const rss = sampling.s.rss[i]!;
    const fds = sampling.s.fds[i]!;
    const anonSeries = sampling.s.anon[i]!;
    const fileSeries = sampling.s.file[i]!;
    lines.push(
      `Process ${i + 1}: RSS ${rssBefore[i]!.toFixed(0)} MB before the load, max ${Math.max(...rss).toFixed(0)} MB, ` +
        `${rss.at(-1)!.toFixed(0)} MB at the end; open files ${fdsBefore[i]} before, max ${Math.max(...fds)}, ${fds.at(-1)} at the end.`,
    );
    const skip = flags.warmup === undefined ? Math.floor(rss.length / 5) : Number(flags.warmup);
    const memory = trend(rss, skip);
    const anon = trend(anonSeries, skip);
    const file = trend(fileSeries, skip);
    const files = trend(fds, skip);
    const heap = sampling.s.heap[i]!;
    if (heap.length >= 4) {
      const q = Math.max(1, Math.floor(heap.length / 4));
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      lines.push(
        `Process ${i + 1}: JavaScript heap in use (${heap.length} reports, every 30 s): first ${heap[0]!.toFixed(0)} MB, ` +
          `max ${Math.max(...heap).toFixed(0)} MB, last ${heap.at(-1)!.toFixed(0)} MB; ` +
          `first quarter mean ${mean(heap.slice(0, q)).toFixed(0)} MB, last quarter mean ${mean(heap.slice(-q)).toFixed(0)} MB.`,
      );
    }
    if (memory && anon && file && files) {
      // A leak grows without bound. Over the steady part (after the warm-up, in which V8's heap sizes itself and
      // SQLite's 64 MB page cache fills), the process's own memory (anonymous RSS) must not grow by more than 10% of
      // its median, and open files must not trend up by more than a handful. Mapped pages of files (file-backed RSS)
      // are the database file read through mmap and the libraries: they grow with the database and must stay within
      // the libraries' share before the load plus the database file's size.
      const anonFlat = Math.abs(anon.growth) < 0.1 * anon.median;
      const fileBound = fileSeries[0]! + dbMb;
      const fileBounded = flags.pg || Math.max(...fileSeries) <= fileBound;
      const filesFlat = files.growth < 5;
      leaking ||= !anonFlat || !fileBounded || !filesFlat;
      const part = (x: NonNullable<typeof anon>) =>
        `first quarter mean ${x.firstQuarter.toFixed(0)} MB, last quarter mean ${x.lastQuarter.toFixed(0)} MB, ` +
        `fitted trend ${signed(x.perMinute)} MB/min (${signed(x.growth, 1)} MB over the part)`;
      lines.push(
        `Process ${i + 1}, steady part (the last ${memory.samples} s, after ${skip} s of warm-up): ` +
          `RSS median ${memory.median.toFixed(0)} MB, ${part(memory)}. ` +
          `Of it, anonymous memory (JavaScript and native heaps, caches): median ${anon.median.toFixed(0)} MB, ${part(anon)}: ` +
          `${anonFlat ? 'flat' : 'GROWING'}. File-backed (database pages read through mmap, libraries): ${part(file)}, ` +
          (flags.pg
            ? `max ${Math.max(...fileSeries).toFixed(0)} MB. `
            : `max ${Math.max(...fileSeries).toFixed(0)} MB against a bound of ${fileBound.toFixed(0)} MB ` +
              `(${fileSeries[0]!.toFixed(0)} MB at the start + the ${dbMb.toFixed(0)} MB database file): ` +
              `${fileBounded ? 'bounded' : 'OVER'}. `) +
          `Open files trend ${signed(files.perMinute)}/min (first quarter mean ${files.firstQuarter.toFixed(1)}, ` +
          `last quarter mean ${files.lastQuarter.toFixed(1)}): ${filesFlat ? 'no leak' : 'LEAKING'}.`,
      );
    }
  });
  if (t.samples.length) lines.push('', 'First errors:', ...t.samples.map((s) => `- ${s}`));
  console.log(lines.join('\n'));
  await Promise.all(fleet.servers.map((s) => s.stop()));
  await fleet.target.drop();
  if (check.missing > 0 || errors > 0 || leaking) process.exitCode = 1;
  return lines;

  async function freshDbCount(f: Fleet) {
    const { openDatabase } = await import('../../apps/server/src/db/database.ts');
    const db = openDatabase({ dataDir: f.target.dataDir, databaseUrl: f.target.databaseUrl });
    try {
      const ids = [...acked].map((a) => Number(a.split(':')[1]));
      let found = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db.kysely
          .selectFrom('rois')
          .select('id')
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        found += rows.length;
      }
      return { found, missing: ids.length - found };
    } finally {
      await db.close();
    }
  }
}

/**
 * Least-squares trend of a once-a-second series after its warm-up (caches filling, JIT, heap sizing): per minute, and
 * over the whole steady part; with the means of its first and last quarters, which a sawtooth GC pattern cannot fool.
 */
function trend(series: number[], skip: number) {
  const steady = series.slice(skip);
  const n = steady.length;
  if (n < 20) return null;
  const meanX = (n - 1) / 2;
  const meanY = steady.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  steady.forEach((y, x) => {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  });
  const perSecond = sxy / sxx;
  const quarter = Math.floor(n / 4);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    samples: n,
    perMinute: perSecond * 60,
    growth: perSecond * (n - 1),
    median: [...steady].sort((a, b) => a - b)[Math.floor(n / 2)]!,
    firstQuarter: mean(steady.slice(0, quarter)),
    lastQuarter: mean(steady.slice(n - quarter)),
  };
}

/** Closed-loop page calls for `seconds`: calls per second and latencies. */
async function saturate(servers: ServerProcess[], clients: number, seconds: number) {
  const t: Tally = { times: new Map(), errors: new Map(), samples: [] };
  const tokens = await Promise.all(
    Array.from({ length: clients }, (_, i) => signIn(servers[i % servers.length]!.url, `bench-user-${i + 1}`, 'bench-pass')),
  );
  const until = Date.now() + seconds * 1000;
  let calls = 0;
  const started = performance.now();
  const cpu = startCpu(servers.map((s) => s.pid));
  await Promise.all(
    tokens.map(async (token, i) => {
      let n = i;
      while (Date.now() < until) {
        const server = servers[n++ % servers.length]!;
        const station = 1 + rnd(STATIONS);
        await timedCall(t, 'page', `${server.url}/api/roi/index?category_id=-100&ipp_id=${station}&limit=200`, {
          headers: { 'x-token': token },
        });
        calls++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = cpu();
  const times = t.times.get('page') ?? [];
  return {
    cpu: used,
    perSecond: calls / elapsed,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: t.errors.get('page') ?? 0,
  };
}

async function throughput() {
  const clients = Number(flags.clients);
  const seconds = Number(flags.seconds);
  const phases = Number(flags.phases);
  console.log(
    `Throughput of the ROI page: ${clients} closed-loop clients, ${phases} × (1 process, 2 processes) of ${seconds} s each, ` +
      `${flags.pg ? 'PostgreSQL' : 'SQLite'}`,
  );
  const fleet = await prepare(2);
  const rows: { one: Awaited<ReturnType<typeof saturate>>; two: Awaited<ReturnType<typeof saturate>> }[] = [];
  // Warm both processes' caches.
  await saturate(fleet.servers, clients, 5);
  for (let p = 0; p < phases; p++) {
    const one = await saturate([fleet.servers[0]!], clients, seconds);
    const two = await saturate(fleet.servers, clients, seconds);
    rows.push({ one, two });
    console.log(
      `  phase ${p + 1}: 1 process ${one.perSecond.toFixed(0)} calls/s (p99 ${ms(one.p99)} ms), 2 processes ${two.perSecond.toFixed(0)} calls/s ` +
        `(p99 ${ms(two.p99)} ms): ${(two.perSecond / one.perSecond).toFixed(2)}×`,
    );
    console.log(`    cores used, 1 process: ${formatCpu(one.cpu)}`);
    console.log(`    cores used, 2 processes: ${formatCpu(two.cpu)}`);
  }
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
  const ratio = sum((r) => r.two.perSecond) / sum((r) => r.one.perSecond);
  const errors = sum((r) => r.one.errors + r.two.errors);
  const lines = [
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} CPUs, Node ${process.version}; ${flags.pg ? 'PostgreSQL' : 'SQLite'}, ` +
      `${Number(flags.rois).toLocaleString('en')} generated ROIs; ${clients} closed-loop clients calling page 1 of a random station ` +
      `(GET /api/roi/index, 200 items), ${phases} alternating phases of ${seconds} s.`,
    '',
    '| phase | 1 process: calls/s | p50 | p99 | 2 processes: calls/s | p50 | p99 | 2 / 1 |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${r.one.perSecond.toFixed(0)} | ${ms(r.one.p50)} ms | ${ms(r.one.p99)} ms | ${r.two.perSecond.toFixed(0)} | ` +
        `${ms(r.two.p50)} ms | ${ms(r.two.p99)} ms | ${(r.two.perSecond / r.one.perSecond).toFixed(2)} |`,
    ),
    '',
    '| phase | processes | cores used: server(s) | PostgreSQL | load generator | whole machine |',
    '|---|---|---|---|---|---|',
    ...rows.flatMap((r, i) =>
      [r.one, r.two].map(
        (x) =>
          `| ${i + 1} | ${x.cpu.servers.length} | ${x.cpu.servers.map((c) => c.toFixed(2)).join(' + ')} | ` +
          `${x.cpu.postgres.toFixed(2)} | ${x.cpu.generator.toFixed(2)} | ${x.cpu.machine.toFixed(2)} of ${x.cpu.cores} |`,
      ),
    ),
    '',
    `Two processes vs one: ${ratio.toFixed(2)}× the calls per second (target ≥ 1.6). Errors: ${errors}.`,
  ];
  console.log(lines.join('\n'));
  await Promise.all(fleet.servers.map((s) => s.stop()));
  await fleet.target.drop();
  return lines;
}

const lines = flags.throughput ? await throughput() : await mixed();
if (flags.write) {
  const soak = !flags.throughput && Number(flags.seconds) >= 600;
  const kind = soak ? 'soak' : 'load';
  const marker = flags.throughput ? 'scale-out' : `${kind}-${flags.pg ? 'pg' : 'sqlite'}-${flags.processes}`;
  // The 10-minute soak is a reliability figure (issue 8); the shorter runs are benchmarks.
  const file = path.join(repoRoot, soak ? 'docs/reliability.md' : 'docs/benchmarks.md');
  const doc = fs.readFileSync(file, 'utf8');
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const block = `${start}\n${lines.join('\n')}\n${end}`;
  const at = doc.indexOf(start);
  const next = at >= 0 ? doc.slice(0, at) + block + doc.slice(doc.indexOf(end) + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
  console.log(`${path.relative(repoRoot, file)}: ${marker} figures written`);
}
