import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Completeness } from '@ipp/contracts';
import { completenessMigration } from '../src/db/migrations/0023-completeness.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

const HOUR = 3_600_000;
const MIN = 60_000;

/**
 * Data completeness (issue 23): per station-hour the seconds online and sampling, the frames expected at the frame rate
 * the device runs, the images its counter says it made, and the images received; each hour complete, missing images,
 * idle or offline.
 */
describe.each(dialects)('data completeness on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1 = { id: 0, key: '' };
  let seed = 0;
  const hourStart = () => Math.floor(env.clock.now / HOUR) * HOUR;
  const send = async (key: string, sample: object) => {
    const res = body(await telemetry(env, key, sample));
    expect(res.code, JSON.stringify(res)).toBe(1000);
  };
  const images = async (key: string, at: number, n: number) => {
    for (let i = 0; i < n; i++) {
      const res = body(
        await uploadRoi(env, key, { captured_at: at + i * 1000, label_index: 1, size_px: 900 }, await pngOf(++seed)),
      );
      expect(res.code, JSON.stringify(res)).toBe(1000);
    }
  };
  const completeness = async (query: string, token = w.tokens.user) => {
    const res = body(await call(env, token, 'GET', `/api/ipp/completeness?${query}`));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return res.data as Completeness;
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    env.clock.advance(30 * MIN);
  });
  afterEach(() => env.close());

  /** Six hours ago to now: complete, missing, idle, offline, missing after a counter reset, offline (silent). */
  async function sixHours() {
    const base = hourStart() - 5 * HOUR;
    const at = (minutes: number) => base + minutes * MIN;
    const sample = (minutes: number, rois: number, volume: number, extra: object = {}) =>
      send(a1.key, { at: at(minutes), rois_total: rois, volume_total_l: volume, volume_5min_ml: volume > 0 ? 50 : 0, ...extra });
    // Two hours sampling, a report every 10 minutes, the counter 2 images higher each time; from minute 60 the
    // device runs 5 frames a second.
    for (let m = 0; m <= 120; m += 10)
      await sample(m, 100 + (m / 10) * 2, 1 + m / 100, m === 60 ? { applied_config: { frame_rate: 5 } } : {});
    // Water stops: online but idle.
    for (let m = 130; m <= 180; m += 10)
      await send(a1.key, { at: at(m), rois_total: 124, volume_total_l: 2.2, volume_5min_ml: 0 });
    // 90 minutes of silence (offline), in which the device made 6 images that never arrived.
    await sample(270, 130, 2.5);
    // The device restarted: its counter starts again at 2.
    await sample(280, 2, 2.6);
    await images(a1.key, at(5), 12);
    await images(a1.key, at(65), 3);
    return base;
  }

  it('gives each hour its expected images, received images and state', async () => {
    const base = await sixHours();
    const c = await completeness('dev_id=A1&period=24h&points=24');
    expect(c).toMatchObject({ dev_id: 'A1', bucket_ms: HOUR, end: hourStart() + HOUR });
    const last = c.buckets.slice(-6);
    expect(last.map((b) => b.start)).toEqual([0, 1, 2, 3, 4, 5].map((i) => base + i * HOUR));
    const state = (b: Completeness['buckets'][number]) => Object.entries(b.hours).find(([, n]) => n === 1)?.[0];
    // The silent hour lost the images the device counted in it: missing, not merely offline. The hour in progress is
    // not judged yet.
    expect(last.map(state)).toEqual(['complete', 'missing', 'idle', 'missing', 'missing', 'none']);
    // Hours before the station's first record are in no state.
    expect(c.buckets.slice(0, -6).every((b) => b.hours.none === 1)).toBe(true);
    expect(last.map((b) => b.expected)).toEqual([12, 12, 0, 4, 4, null]);
    expect(last.map((b) => b.received)).toEqual([12, 3, 0, 0, 0, 0]);
    expect(last.map((b) => b.online_s)).toEqual([3600, 3600, 3600, 0, 600, 0]);
    expect(last.map((b) => b.hours.offline)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(last.map((b) => b.sampling_s)).toEqual([3600, 3600, 0, 0, 600, 0]);
    // 3 frames a second in the first hour, 5 after the device applied the new rate.
    expect(last.map((b) => b.frames_expected)).toEqual([10800, 18000, 0, 0, 3000, 0]);
    expect(c.totals).toEqual({
      expected: 32,
      received: 15,
      received_counted: 15,
      received_pct: 46.9,
      missing_hours: 3,
      offline_hours: 0,
      sampling_hours: 2.2,
    });
  });

  it('sums hours into day buckets with their states counted', async () => {
    await sixHours();
    const c = await completeness('dev_id=A1&period=1m&points=30&tz=0');
    expect(c.bucket_ms).toBe(24 * HOUR);
    const today = c.buckets.at(-1)!;
    expect(today.received).toBe(15);
    expect(today.expected).toBe(32);
    expect(today.hours.complete + today.hours.missing + today.hours.idle + today.hours.offline).toBe(5);
    expect(today.hours.missing).toBe(3);
    expect(c.buckets.slice(0, -1).every((b) => b.expected === null && b.received === 0)).toBe(true);
  });

  it('without an image counter: a sampling hour with no image is missing, with images complete; no volume means sampling', async () => {
    const base = hourStart() - 2 * HOUR;
    for (let m = 0; m <= 120; m += 10) await send(a1.key, { at: base + m * MIN, cpu_temp_c: 40 });
    await images(a1.key, base + 5 * MIN, 2);
    const c = await completeness('dev_id=A1&period=24h&points=24');
    const [first, second] = c.buckets.slice(-3);
    expect(first).toMatchObject({ expected: null, received: 2, sampling_s: 3600, hours: { complete: 1 } });
    expect(second).toMatchObject({ expected: null, received: 0, sampling_s: 3600, hours: { missing: 1 } });
    expect(c.totals.expected).toBeNull();
    expect(c.totals.received_pct).toBeNull();
  });

  it('a retried sample or image adds nothing', async () => {
    const base = await sixHours();
    await send(a1.key, { at: base + 30 * MIN, rois_total: 106, volume_total_l: 1.3, volume_5min_ml: 50 });
    const png = await pngOf(seed);
    expect(body(await uploadRoi(env, a1.key, { captured_at: base + 65 * MIN + 4000, size_px: 900 }, png)).data).toMatchObject({
      stored: false,
    });
    const c = await completeness('dev_id=A1&period=24h&points=24');
    expect(c.totals).toMatchObject({ expected: 32, received: 15 });
  });

  it("another team's station is unknown to the caller; the superadmin reads every team's; bad input is answered in the caller's language", async () => {
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    await send(b1.key, { at: hourStart() - 20 * MIN, rois_total: 1 });
    await send(b1.key, { at: hourStart() - 10 * MIN, rois_total: 4 });
    const denied = body(await call(env, w.tokens.user, 'GET', '/api/ipp/completeness?dev_id=B1'));
    expect(denied.code).not.toBe(1000);
    expect(JSON.stringify(denied)).not.toContain('frames_expected');
    const all = await completeness('dev_id=B1&period=24h&points=24', w.tokens.superadmin);
    expect(all.buckets.at(-2)!.expected).toBe(3);
    const unsigned = body(await call(env, undefined, 'GET', '/api/ipp/completeness?dev_id=A1'));
    expect(unsigned.code).not.toBe(1000);
    const bad = async (lang: string) =>
      body(
        await env.app.inject({
          method: 'GET',
          url: '/api/ipp/completeness?dev_id=A1&period=2w&points=1',
          headers: { 'x-token': w.tokens.user!, 'x-lang': lang },
        }),
      );
    const [zh, en] = [await bad('zh'), await bad('en')];
    expect(zh.code).toBe(en.code);
    expect(zh.code).not.toBe(1000);
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(en.msg).toMatch(/period|points/);
  });

  it('a report and images at once, then two callers reading at once: every report counted once, both callers answered alike', async () => {
    const base = hourStart() - HOUR;
    await send(a1.key, { at: base, rois_total: 0 });
    await Promise.all([
      send(a1.key, { at: base + 10 * MIN, rois_total: 6 }),
      images(a1.key, base + MIN, 3),
      images(a1.key, base + 2 * MIN, 3),
    ]);
    const [one, two] = await Promise.all([
      completeness('dev_id=A1&period=24h&points=24'),
      completeness('dev_id=A1&period=24h&points=24', w.tokens.ownAdmin),
    ]);
    expect(one).toEqual(two);
    expect(one.buckets.at(-2)).toMatchObject({ expected: 6, received: 6, online_s: 600, hours: { complete: 1 } });
  });

  it('the hour in progress adds its figures so far, but is not judged until it ends', async () => {
    await send(a1.key, { at: hourStart() + 5 * MIN, rois_total: 0 });
    await send(a1.key, { at: hourStart() + 15 * MIN, rois_total: 4 });
    await images(a1.key, hourStart() + 6 * MIN, 1);
    const c = await completeness('dev_id=A1&period=24h&points=24');
    expect(c.buckets.at(-1)).toMatchObject({ expected: 4, received: 1, online_s: 600, hours: { none: 1, missing: 0 } });
    expect(c.totals).toMatchObject({ expected: 4, received: 1, received_counted: 1, received_pct: 25, missing_hours: 0 });
  });

  it('a silence of 200 days is stored without a row per hour, and the reports after it are too', async () => {
    const long = hourStart() - 200 * 24 * HOUR;
    await send(a1.key, { at: long, rois_total: 5 });
    await send(a1.key, { at: hourStart() - 30 * MIN, rois_total: 9 });
    await send(a1.key, { at: hourStart() - 20 * MIN, rois_total: 11 });
    const rows = (await sql<{ n: number }>`select count(*) as n from completeness_hour`.execute(env.db.kysely)).rows;
    expect(Number(rows[0]!.n)).toBe(1);
    const c = await completeness('dev_id=A1&period=24h&points=24');
    // The 4 images made over the silence are in the hour of the report that counted them, with the 2 after it.
    expect(c.buckets.at(-2)).toMatchObject({ expected: 6, online_s: 600 });
  });

  it('images counted just before the hour turned cover the next hour, whose share of them never arrived there', async () => {
    const h = hourStart() - 3 * HOUR;
    await send(a1.key, { at: h - 10 * MIN, rois_total: 0, volume_5min_ml: 40 });
    await send(a1.key, { at: h - 5 * MIN, rois_total: 0, volume_5min_ml: 40 });
    await send(a1.key, { at: h + 5 * MIN, rois_total: 10, volume_5min_ml: 40 });
    await images(a1.key, h - 4 * MIN, 10);
    const c = await completeness('dev_id=A1&period=24h&points=24');
    const [before, after] = c.buckets.slice(-5, -3);
    expect([before!.expected, before!.received, after!.expected, after!.received]).toEqual([5, 10, 5, 0]);
    expect(after!.hours.complete).toBe(1);
    expect(c.totals.missing_hours).toBe(0);
  });

  it('a counter sent with some reports only: its images are spread from the reading before', async () => {
    const base = hourStart() - 3 * HOUR;
    for (let m = 0; m <= 120; m += 10)
      await send(a1.key, { at: base + m * MIN, ...(m === 0 ? { rois_total: 0 } : m === 120 ? { rois_total: 24 } : {}) });
    const c = await completeness('dev_id=A1&period=24h&points=24');
    expect(c.buckets.slice(-4, -2).map((b) => b.expected)).toEqual([12, 12]);
  });

  it('migration 0023 counts the images already stored as received', async () => {
    await sixHours();
    const k = env.db.kysely;
    const migration = completenessMigration(env.db.dialect);
    await migration.down(k as never);
    await migration.up(k as never);
    const rows = (
      await sql<{ hour: number; received: number }>`select hour, received from completeness_hour order by hour`.execute(k)
    ).rows;
    const base = hourStart() - 5 * HOUR;
    expect(rows.map((r) => [Number(r.hour), Number(r.received)])).toEqual([
      [base, 12],
      [base + HOUR, 3],
    ]);
  });
});
