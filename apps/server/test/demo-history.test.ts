import type { AddressInfo } from 'node:net';
import type { Measured } from '@ipp/contracts';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/database.ts';
import { startDemoLive } from '../src/seed/demo-live.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { DEMO_STATIONS, seedDemoHistory } from '../src/seed/demo-history.ts';
import { body, buildTestApp, get, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';

describe.each(dialects)('demo history on %s', (dialect) => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    await seedDemo(env.db, env.clock.read, env.config.SCRYPT_LOG_N);
  });
  afterEach(() => env.close());

  it('fills every overview chart through the real ingest path, once', async () => {
    const result = await seedDemoHistory(env.db, env.clock.read, env.app.devices, env.app.rois, {
      days: 3,
      roisPerHour: 0.5,
    });
    expect(result.created).toBe(true);
    expect(result.rois).toBeGreaterThan(20);
    const token = await login(env, 'demo_user', 'demo123');
    const roi30 = body(await get(env, '/api/views/roi30?tz=480', token)).data as {
      stations: { dev_id: string; rois: number[]; temperature_c: (number | null)[]; volume_l: number[] }[];
      classes: { count: number }[];
    };
    expect(roi30.stations.map((s) => s.dev_id).sort()).toEqual(DEMO_STATIONS.map((s) => s.dev_id));
    const withData = roi30.stations.filter((s) => s.rois.some((n) => n > 0));
    expect(withData).toHaveLength(3);
    for (const s of withData) {
      expect(s.temperature_c.filter((t) => t !== null).length).toBeGreaterThanOrEqual(3);
      expect(s.volume_l.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    }
    expect(roi30.classes.reduce((a, c) => a + c.count, 0)).toBe(result.rois);
    const wall = body(await get(env, '/api/views/wall', token)).data as { total: number };
    expect(wall.total).toBeGreaterThan(0);
    const ipps = body(await get(env, '/api/ipp/index', token)).data as {
      dev_id: string;
      online: boolean;
      total_images: number;
    }[];
    expect(ipps.filter((i) => i.online)).toHaveLength(3);
    // Samples every 10 minutes, within the offline threshold: the three days count as online time.
    const hours = (ipps as unknown as { dev_id: string; online: boolean; online_hours: number }[])
      .filter((i) => i.online)
      .map((i) => i.online_hours);
    for (const h of hours) expect(h).toBeGreaterThan(71);
    expect(ipps.reduce((a, i) => a + i.total_images, 0)).toBe(result.rois);
    const again = await seedDemoHistory(env.db, env.clock.read, env.app.devices, env.app.rois);
    expect(again.created).toBe(false);
    // Every image is measured and classified at ingest: about 30 s on a busy two-core machine. The limit catches a
    // hang, not slowness.
  }, 120_000);

  it('lets the server answer other callers while it writes the telemetry', async () => {
    // npm start writes the history after the server listens. On SQLite every statement is synchronous, so a loop of
    // awaited writes never gave the event loop back: the console answered nothing for the minute the telemetry took.
    let done = 0;
    let total = 0;
    let doneWhenTimerFired = -1;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        doneWhenTimerFired = done;
        resolve();
      }, 0),
    );
    await seedDemoHistory(env.db, env.clock.read, env.app.devices, env.app.rois, {
      days: 1,
      roisPerHour: 0,
      onProgress: (d, t) => {
        done = d;
        total = t;
      },
    });
    await timer;
    expect(total).toBeGreaterThan(400);
    expect(doneWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(doneWhenTimerFired).toBeLessThan(total);
  });
});

describe('live demo stations', () => {
  it('keep reporting over the real protocol after their history, continuing its counters', async () => {
    const env = await buildTestApp('sqlite');
    try {
      // The simulator stamps samples with the real time; the server must agree.
      env.clock.now = Date.now();
      await seedDemo(env.db, env.clock.read, env.config.SCRYPT_LOG_N);
      await seedDemoHistory(env.db, env.clock.read, env.app.devices, env.app.rois, { days: 1, roisPerHour: 0.2 });
      const before = await env.db.kysely
        .selectFrom('ipps')
        .select(['dev_id', 'latest_telemetry'])
        .where('dev_id', '=', '21001')
        .executeTakeFirstOrThrow();
      const volumeBefore = (JSON.parse(before.latest_telemetry ?? '{}') as { volume_total_l: number }).volume_total_l;
      await env.app.listen({ port: 0, host: '127.0.0.1' });
      const address = env.app.server.address() as AddressInfo;
      const live = await startDemoLive(env.db, `http://127.0.0.1:${address.port}`);
      expect(live?.devices.map((d) => d.instrument.devId).sort()).toEqual(['21001', '21002', '21003']);
      const deadline = Date.now() + 20_000;
      type Sample = { at: number; volume_total_l: number };
      let latest: Sample | null = null;
      while (Date.now() < deadline) {
        env.clock.now = Date.now();
        const row = await env.db.kysely
          .selectFrom('ipps')
          .select('latest_telemetry')
          .where('dev_id', '=', '21001')
          .executeTakeFirstOrThrow();
        latest = JSON.parse(row.latest_telemetry ?? 'null') as Sample | null;
        if (latest && latest.at > Date.now() - 60_000) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      await live?.stop();
      expect(latest?.at).toBeGreaterThan(Date.now() - 60_000);
      expect(latest?.volume_total_l).toBeGreaterThanOrEqual(volumeBefore);
    } finally {
      env.app.server.closeAllConnections();
      await env.close();
    }
  });
});

const LIVE = ['21001', '21002', '21003'];

async function latestReadings(db: Db): Promise<Record<string, Measured>> {
  const rows = await db.kysely.selectFrom('ipps').select(['dev_id', 'latest_telemetry']).where('dev_id', 'in', LIVE).execute();
  return Object.fromEntries(rows.map((r) => [r.dev_id, JSON.parse(r.latest_telemetry ?? 'null') as Measured]));
}

/** Runs the live demo against `app` on a device clock starting at `startAt`, until every station reported once. */
async function firstLiveReadings(app: FastifyInstance, db: Db, startAt: number): Promise<Record<string, Measured>> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const t0 = Date.now();
  const live = await startDemoLive(db, `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, undefined, {
    clock: () => startAt + (Date.now() - t0),
  });
  expect(live).not.toBeNull();
  try {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const latest = await latestReadings(db);
      if (LIVE.every((devId) => (latest[devId]?.at ?? 0) >= startAt)) return latest;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the live demo stations did not report');
  } finally {
    await live?.stop();
    app.server.closeAllConnections();
  }
}

describe.each(dialects)('live demo stations on %s', (dialect) => {
  it('continue the history without a step and keep their last clean time across restarts', async () => {
    const env = await buildTestApp(dialect);
    let restarted: FastifyInstance | null = null;
    try {
      // Just after midnight UTC is morning at the Chinese stations: readings between the daily extremes, where a
      // different baseline or cycle would show. Off the 10-minute grid of the history: it still ends right then.
      env.clock.now = Date.UTC(2026, 10, 22, 0, 3, 20);
      const end = env.clock.now;
      await seedDemo(env.db, env.clock.read, env.config.SCRYPT_LOG_N);
      await seedDemoHistory(env.db, env.clock.read, env.app.devices, env.app.rois, { days: 1, roisPerHour: 0.1 });
      const history = await latestReadings(env.db);
      // The live simulator starts a minute after the history's last sample (the demo's first start).
      const first = await firstLiveReadings(env.app, env.db, end + 60_000);
      for (const devId of LIVE) {
        const h = history[devId]!;
        const l = first[devId]!;
        expect(h.at).toBe(end);
        // Same model, same station: a minute later the readings carry on (sensor noise aside), no jump of degrees.
        expect(Math.abs(l.temperature_c! - h.temperature_c!), `${devId} temperature`).toBeLessThan(0.6);
        expect(Math.abs(l.humidity_pct! - h.humidity_pct!), `${devId} humidity`).toBeLessThan(2);
        expect(Math.abs(l.volume_5min_ml! - h.volume_5min_ml!), `${devId} 5-minute volume`).toBeLessThan(100);
        expect(l.volume_total_l! - h.volume_total_l!).toBeGreaterThan(0);
        expect(l.volume_total_l! - h.volume_total_l!).toBeLessThan(0.2);
        expect(h.wiper_last_clean_at).not.toBeNull();
        expect(l.wiper_last_clean_at).toBeGreaterThanOrEqual(h.wiper_last_clean_at!);
        expect(l.wiper_clean_count).toBeGreaterThanOrEqual(h.wiper_clean_count!);
        expect(l.storage_gb).toBeLessThanOrEqual(h.storage_gb!);
      }

      // The console restarts on the same database three hours later: nothing the stations counted is lost.
      await env.app.close();
      env.clock.now = end + 3 * 3_600_000;
      restarted = await buildApp({ config: env.config, db: env.db, clock: env.clock.read });
      const again = await firstLiveReadings(restarted, env.db, env.clock.now);
      for (const devId of LIVE) {
        const before = first[devId]!;
        const after = again[devId]!;
        expect(after.wiper_last_clean_at, `${devId} last clean`).toBeGreaterThanOrEqual(before.wiper_last_clean_at!);
        expect(after.wiper_clean_count).toBeGreaterThanOrEqual(before.wiper_clean_count!);
        expect(after.volume_total_l).toBeGreaterThanOrEqual(before.volume_total_l!);
      }
      // And the console shows the last clean time of each station.
      const token = await login({ ...env, app: restarted }, 'demo_user', 'demo123');
      const ipps = body(await get({ ...env, app: restarted }, '/api/ipp/index', token)).data as {
        dev_id: string;
        measured: Measured | null;
      }[];
      for (const devId of LIVE)
        expect(ipps.find((i) => i.dev_id === devId)?.measured?.wiper_last_clean_at).toBe(again[devId]!.wiper_last_clean_at);
    } finally {
      await restarted?.close();
      await env.close();
    }
  }, 120_000);
});
