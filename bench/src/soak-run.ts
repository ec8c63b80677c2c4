/**
 * The fleet soak (issue 39): simulated instruments (the simulator, speaking the real protocol) and console users
 * against two server processes on one PostgreSQL database with images in an S3-protocol bucket (s3rver), behind nginx
 * from Debian run with the repository's configuration (deploy/nginx/ipp-console.conf). Instruments go offline in
 * turns and come back with a backlog. Measured: images captured vs acknowledged vs stored (0 lost), the backlog and
 * how fast it drains, console page times through the proxy, offline alarms raised for the instruments that were
 * offline, and each process's memory at the start and the end.
 *
 * `npm run bench:soak` runs it from the command line (bench/src/soak.ts); e2e/fleet-soak.e2e.ts runs a two-minute
 * version in CI and checks what must hold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { runSimulator } from '../../apps/server/src/simulator/simulator.ts';
import { deviceKeyOf, freshTarget, generateFleet, type Target } from './generate.ts';
import { startNginx } from './nginx.ts';
import type { SoakReport } from './soak-report.ts';

export type { SoakReport } from './soak-report.ts';
export { describeSoak } from './soak-report.ts';
import { envelope, percentile, request, signIn, startServerProcess, type ServerProcess } from './server-process.ts';

export interface SoakOptions {
  /** Simulated instruments (B1…Bn). */
  devices: number;
  /** ROI images per second the whole fleet captures before the size filter (the simulator's rate × devices). */
  totalRate: number;
  /** How long the fleet runs, s (then it stops capturing and its backlog drains). */
  seconds: number;
  /** Telemetry every S seconds per instrument. */
  telemetryIntervalS: number;
  /** Outages: the first at this second, then one every `outageEveryS`, each of `outageShare` of the fleet for `outageS`. */
  firstOutageAtS: number;
  outageEveryS: number;
  outageShare: number;
  outageS: number;
  /** Console users browsing through the proxy, each with a think time. */
  users: number;
  thinkMs: number;
  /** The console's offline threshold during the soak (System Configuration), minutes. */
  offlineMinutes: number;
  /** How long the backlog may take to drain after the run, s. */
  drainTimeoutS: number;
  log: (line: string) => void;
}

export const SHORT_SOAK: Omit<SoakOptions, 'log'> = {
  devices: 200,
  totalRate: 10,
  seconds: 120,
  telemetryIntervalS: 10,
  firstOutageAtS: 5,
  outageEveryS: 1000,
  outageShare: 0.1,
  outageS: 85,
  users: 3,
  thinkMs: 1000,
  offlineMinutes: 1,
  drainTimeoutS: 120,
};

export const FULL_SOAK: Omit<SoakOptions, 'log'> = {
  ...SHORT_SOAK,
  totalRate: 100,
  seconds: 1200,
  firstOutageAtS: 30,
  outageEveryS: 150,
  outageS: 90,
  users: 5,
  drainTimeoutS: 600,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface PageTally {
  times: Map<string, number[]>;
  errors: number;
  samples: string[];
}

/** A console user through the proxy: the identify browser, the overview, a station's statistics, with a think time. */
async function browse(base: string, index: number, stations: number, until: () => boolean, thinkMs: number, t: PageTally) {
  const token = await signIn(base, `bench-user-${index + 1}`, 'bench-pass');
  const headers = { 'x-token': token };
  const pick = () => 1 + Math.floor(Math.random() * stations);
  const calls: [string, () => string][] = [
    ['identify page', () => `/api/roi/index?category_id=-100&ipp_id=${pick()}&limit=200`],
    ['class tree', () => `/api/roi-index/index?category_id=-100&ipp_id=${pick()}`],
    ['overview', () => '/api/views/roi24'],
    ['stations', () => '/api/ipp/index'],
    ['station statistics', () => `/api/roi/get-site-roi?dev_id=B${pick()}&period=24h&tz=480`],
    ['alarms', () => '/api/alarm/list'],
  ];
  while (!until()) {
    const [kind, url] = calls[Math.floor(Math.random() * calls.length)]!;
    const started = performance.now();
    let ok = false;
    let detail = '';
    try {
      const answer = await request(`${base}${url()}`, { headers });
      ok = answer.status === 200 && envelope(answer).code === 1000;
      if (!ok) detail = `${answer.status} ${answer.body.toString().slice(0, 200)}`;
    } catch (error) {
      detail = String(error);
    }
    const ms = performance.now() - started;
    if (!t.times.has(kind)) t.times.set(kind, []);
    t.times.get(kind)!.push(ms);
    if (!ok) {
      t.errors++;
      if (t.samples.length < 5) t.samples.push(`${kind}: ${detail}`);
    }
    await sleep(thinkMs * (0.5 + Math.random()));
  }
}

async function prepareDatabase(o: Omit<SoakOptions, 'log'>, now: number): Promise<Target> {
  const target = await freshTarget('postgres', 'soak');
  await generateFleet(target.db, {
    rois: 20_000,
    stations: o.devices,
    classes: 20,
    days: 30,
    now,
    telemetry: false,
    users: o.users,
  });
  const k = target.db.kysely;
  // Stations come online by their first report, not by the generator's stamp.
  await k.updateTable('ipps').set({ last_online_at: null }).execute();
  await k
    .insertInto('settings')
    .values({ key: 'offline_minutes', value: JSON.stringify(o.offlineMinutes), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(o.offlineMinutes), updated_at: now }))
    .execute();
  const team = await k.selectFrom('teams').select('id').where('name', '=', 'Bench').executeTakeFirstOrThrow();
  await k
    .insertInto('alarm_rules')
    .values({
      group_id: team.id,
      name: 'Offline',
      kind: 'offline',
      threshold: null,
      minutes: 0,
      class_id: null,
      ipp_id: null,
      enabled: 1,
      renotify_minutes: 60,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return target;
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const { log, ...o } = options;
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  };
  try {
    const prepared = Date.now();
    const target = await prepareDatabase(o, prepared);
    cleanups.push(() => target.drop());
    await target.db.close();

    const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-soak-s3-'));
    const s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'ipp', configs: [] }],
    });
    const { port: s3Port } = await s3.run();
    cleanups.push(async () => {
      await s3.close();
      fs.rmSync(s3Dir, { recursive: true, force: true });
    });

    const servers: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ipp-soak-p${i}-`));
      const server = await startServerProcess({
        dataDir,
        databaseUrl: target.databaseUrl,
        env: {
          STORAGE_URL: `s3://ipp/images?endpoint=${encodeURIComponent(`http://127.0.0.1:${s3Port}`)}`,
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
          JOB_WORKER: i === 0 ? 'on' : 'off',
          SIMILARITY_PRELOAD: 'off',
          ALARM_CHECK_MS: '5000',
        },
      });
      servers.push(server);
      cleanups.push(async () => {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
    }
    const nginx = await startNginx(servers.map((s) => s.port));
    cleanups.push(() => nginx.stop());
    log(`  two server processes (:${servers.map((s) => s.port).join(', :')}) behind nginx ${nginx.url}, PostgreSQL, s3rver`);

    const started = Date.now();
    const simLines: string[] = [];
    const sim = await runSimulator(
      {
        server: nginx.url,
        count: o.devices,
        rate: o.totalRate / o.devices,
        telemetryIntervalS: o.telemetryIntervalS,
        devices: Array.from({ length: o.devices }, (_, i) => ({ devId: `B${i + 1}`, key: deviceKeyOf(i + 1) })),
        account: 'unused',
        password: 'unused',
      },
      { log: (line) => simLines.push(line), summaryEveryMs: 60_000 },
    );
    cleanups.push(() => sim.stop());

    // Console users, through the proxy (they stop at the end, or in the cleanup when the run fails).
    let browsing = true;
    const tally: PageTally = { times: new Map(), errors: 0, samples: [] };
    const users = Array.from({ length: o.users }, (_, i) =>
      browse(nginx.url, i, o.devices, () => !browsing, o.thinkMs, tally).catch((error: unknown) => {
        tally.errors++;
        tally.samples.push(`user ${i + 1}: ${String(error)}`);
      }),
    );

    // Outages in turns: the next devices of the fleet each time; each link comes back after outageS, or at the end.
    const outages: SoakReport['outages'] = [];
    const offlineFor = new Map<number, number>();
    let nextDevice = 0;
    const outageTimers: NodeJS.Timeout[] = [];
    const drainWatches: NodeJS.Timeout[] = [];
    const linksDown = new Set<() => void>();
    const startOutage = () => {
      const n = Math.max(1, Math.round(o.outageShare * o.devices));
      const chosen = Array.from({ length: n }, () => sim.devices[nextDevice++ % o.devices]!);
      for (const d of chosen) d.setOffline(true);
      const from = Date.now();
      const record = { devices: n, backlogAtReturn: 0, drainS: null as number | null };
      outages.push(record);
      const comeBack = () => {
        linksDown.delete(comeBack);
        clearTimeout(timer);
        for (const d of chosen) {
          const index = Number(d.devId.slice(1));
          offlineFor.set(index, Math.max(offlineFor.get(index) ?? 0, Date.now() - from));
          d.setOffline(false);
        }
        record.backlogAtReturn = chosen.reduce((sum, d) => sum + d.stats.backlog, 0);
        const back = Date.now();
        const watch = setInterval(() => {
          // Drained: each device is back to what it captures in a second or two.
          if (chosen.every((d) => d.stats.backlog <= 2)) {
            record.drainS = (Date.now() - back) / 1000;
            clearInterval(watch);
          }
        }, 250);
        drainWatches.push(watch);
      };
      const timer = setTimeout(comeBack, o.outageS * 1000);
      linksDown.add(comeBack);
    };
    outageTimers.push(
      setTimeout(() => {
        startOutage();
        outageTimers.push(setInterval(startOutage, o.outageEveryS * 1000));
      }, o.firstOutageAtS * 1000),
    );
    cleanups.push(async () => {
      browsing = false;
      for (const timer of [...outageTimers, ...drainWatches]) clearInterval(timer);
    });

    // Memory after a warm-up, then the backlog level every second.
    await sleep(Math.min(10_000, (o.seconds * 1000) / 4));
    const memoryStart = await Promise.all(servers.map(async (s) => ({ rss: s.rssMb(), heap: await s.heapUsedMb() })));
    let backlogPeak = 0;
    const backlogWatch = setInterval(() => (backlogPeak = Math.max(backlogPeak, sim.totals().backlog)), 1000);
    let lastReport = Date.now();
    while (Date.now() - started < o.seconds * 1000) {
      await sleep(1000);
      if (Date.now() - lastReport >= 30_000) {
        lastReport = Date.now();
        const t = sim.totals();
        log(
          `  ${Math.round((Date.now() - started) / 1000)} s: ${t.captured} captured, ${t.images} acknowledged, backlog ${t.backlog}, ` +
            `${t.throttled} told to retry, ${t.telemetry} telemetry; rss ${servers.map((s) => s.rssMb().toFixed(0)).join(' / ')} MB`,
        );
      }
    }
    // No new outage; links still down come back for the drain (their real time offline counted).
    for (const timer of outageTimers) clearInterval(timer);
    for (const comeBack of [...linksDown]) comeBack();
    const runS = (Date.now() - started) / 1000;
    const drainFrom = Date.now();
    const drained = await Promise.race([sim.drain().then(() => true), sleep(o.drainTimeoutS * 1000).then(() => false)]);
    const drainS = (Date.now() - drainFrom) / 1000;
    clearInterval(backlogWatch);
    for (const watch of drainWatches) clearInterval(watch);
    browsing = false;
    await Promise.all(users);
    const memoryEnd = await Promise.all(servers.map(async (s) => ({ rss: s.rssMb(), heap: await s.heapUsedMb() })));
    await sim.stop();
    const totals = sim.totals();

    // What the database holds, read once the processes are idle.
    const { openDatabase } = await import('../../apps/server/src/db/database.ts');
    const db = openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    let stored: number;
    let alarmedIds: number[];
    let idOf: Map<number, number>;
    try {
      const rows = await db.kysely
        .selectFrom('rois')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('received_at', '>=', started)
        .executeTakeFirstOrThrow();
      stored = Number(rows.n);
      const ipps = await db.kysely.selectFrom('ipps').select(['id', 'dev_id']).execute();
      idOf = new Map(ipps.map((r) => [Number(r.dev_id.slice(1)), r.id]));
      alarmedIds = (
        await db.kysely
          .selectFrom('alarms')
          .select('ipp_id')
          .distinct()
          .where('kind', '=', 'offline')
          .where('raised_at', '>=', started)
          .execute()
      ).map((r) => r.ipp_id);
    } finally {
      await db.close();
    }
    // Offline long enough to be judged offline and alarmed: the threshold after its last report (one interval before).
    const needMs = o.offlineMinutes * 60_000 + o.telemetryIntervalS * 1000 + 5_000 + 2_000;
    const longEnough = [...offlineFor].filter(([, ms]) => ms >= needMs).map(([i]) => idOf.get(i)!);
    const takenOffline = new Set([...offlineFor.keys()].map((i) => idOf.get(i)!));
    const alarmed = new Set(alarmedIds);
    const all = [...tally.times.values()].flat();
    const byKind = Object.fromEntries([...tally.times].map(([k, v]) => [k, { n: v.length, p95: percentile(v, 95) }]));
    if (tally.samples.length) log(`  console errors: ${tally.samples.join(' | ')}`);
    const serverErrors = servers
      .map((s) => s.log())
      .join('\n')
      .split('\n')
      .filter((l) => /"level":(50|60)/.test(l));
    if (serverErrors.length) log(`  server errors (${serverErrors.length}): ${serverErrors.slice(0, 3).join(' | ')}`);
    return {
      options: o,
      captured: totals.captured,
      acknowledged: totals.images,
      duplicates: totals.duplicates,
      givenUp: totals.imageFailures,
      stored,
      lost: totals.captured - stored,
      throttled: totals.throttled,
      telemetry: totals.telemetry,
      telemetryFailures: totals.telemetryFailures,
      runS,
      drainS,
      drained,
      backlogPeak,
      outages,
      pages: {
        calls: all.length,
        errors: tally.errors,
        p50: percentile(all, 50),
        p95: percentile(all, 95),
        max: Math.max(0, ...all),
        byKind,
      },
      offlineLongEnough: longEnough.length,
      alarmed: longEnough.filter((id) => alarmed.has(id)).length,
      falseAlarms: [...alarmed].filter((id) => !takenOffline.has(id)).length,
      memory: servers.map((_, i) => ({
        rssStart: memoryStart[i]!.rss,
        rssEnd: memoryEnd[i]!.rss,
        heapStart: memoryStart[i]!.heap,
        heapEnd: memoryEnd[i]!.heap,
      })),
      ackPerSecond: totals.images / (runS + drainS),
    };
  } finally {
    await cleanup();
  }
}
