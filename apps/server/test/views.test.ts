import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, get, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

const HOUR = 3_600_000;
const MIN = 60_000;

describe.each(dialects)('monitoring views on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: { id: number; key: string };
  let a2: { id: number; key: string };
  let b1: { id: number; key: string };
  let seed = 0;
  // FakeClock starts at 2026-11-22 08:00 UTC.
  const now = () => env.clock.now;
  const roi = async (key: string, capturedAt: number, label: number) => {
    const res = body(
      await uploadRoi(env, key, { captured_at: capturedAt, label_index: label, size_px: 2500 }, await pngOf(++seed)),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    return (res.data as { roi_id: number }).roi_id;
  };
  const view = async <T>(url: string, token = w.tokens.user) => {
    const res = body(await get(env, url, token));
    if (res.code !== 1000) throw new Error(`${url}: ${JSON.stringify(res)}`);
    return res.data as T;
  };

  beforeEach(async () => {
    // Statistics days start at UTC+8: viewers at tz=480 read day rollups, others hour rollups.
    env = await buildTestApp(dialect, { config: { STATS_UTC_OFFSET: 8 } });
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
  });
  afterEach(() => env.close());

  it('counts ROIs per hour per station over 24 hours, followed stations first, own team only', async () => {
    await roi(a1.key, now() - 30 * MIN, 1); // current hour (07:30 is the hour before 08:00? no: 07:30 is the previous hour)
    await roi(a1.key, now() + 5 * MIN, 2); // 08:05, the current hour
    await roi(a2.key, now() - 5 * HOUR, 1);
    await roi(a2.key, now() - 30 * HOUR, 1); // outside 24 h
    await roi(b1.key, now(), 1);
    await call(env, w.tokens.user, 'POST', '/api/setting/set-group-view', { group_id: null, ids: [a2.id] });
    const data = await view<{
      start: number;
      bucket_ms: number;
      stations: { dev_id: string; followed: boolean; counts: number[] }[];
    }>('/api/views/roi24');
    expect(data.bucket_ms).toBe(HOUR);
    expect(data.start).toBe(now() - 23 * HOUR);
    expect(data.stations.map((s) => [s.dev_id, s.followed])).toEqual([
      ['A2', true],
      ['A1', false],
    ]);
    const [s2, s1] = data.stations;
    expect(s1?.counts).toHaveLength(24);
    expect(s1?.counts[23]).toBe(1);
    expect(s1?.counts[22]).toBe(1);
    expect(s2?.counts[18]).toBe(1);
    expect(s2?.counts.reduce((a, b) => a + b, 0)).toBe(1);
    // The superadmin sees every team, or one.
    const all = await view<{ stations: unknown[] }>('/api/views/roi24', w.tokens.superadmin);
    expect(all.stations).toHaveLength(3);
    const teamB = await view<{ stations: { dev_id: string }[] }>(`/api/views/roi24?group_id=${w.teamB}`, w.tokens.superadmin);
    expect(teamB.stations.map((s) => s.dev_id)).toEqual(['B1']);
    expect(body(await get(env, '/api/views/roi24')).code).toBe(1010);
  });

  it('summarises 30 local days: ROIs, temperature, humidity, water sampled from the counter, classes', async () => {
    const tz = 480; // UTC+8: 08:00 UTC is 16:00 local; local midnight is 16:00 UTC.
    const localMidnight = Date.UTC(2026, 10, 21, 16, 0);
    const samples = [
      { at: localMidnight + 1 * HOUR, temperature_c: 10, humidity_pct: 40, volume_total_l: 100 },
      { at: localMidnight + 2 * HOUR, temperature_c: 14, humidity_pct: 50, volume_total_l: 101.5 },
      { at: localMidnight + 3 * HOUR, temperature_c: 18, volume_total_l: 0.5 }, // counter reset
      { at: localMidnight - 2 * HOUR, temperature_c: 30, humidity_pct: 60, volume_total_l: 99 }, // yesterday, out of order
    ];
    for (const sample of samples) await telemetry(env, a1.key, sample);
    await roi(a1.key, localMidnight + 90 * MIN, 1);
    await roi(a1.key, localMidnight + 100 * MIN, 1);
    await roi(a1.key, localMidnight - 3 * HOUR, 3);
    await roi(a2.key, localMidnight - 3 * HOUR, 0);
    const data = await view<{
      start: number;
      stations: {
        dev_id: string;
        rois: number[];
        temperature_c: (number | null)[];
        temperature_max_c: (number | null)[];
        humidity_pct: (number | null)[];
        volume_l: number[];
      }[];
      classes: { class_id: number | null; name: string | null; count: number }[];
    }>(`/api/views/roi30?tz=${tz}`);
    expect(data.start).toBe(localMidnight - 29 * 24 * HOUR);
    const s1 = data.stations.find((s) => s.dev_id === 'A1')!;
    expect(s1.rois.slice(-2)).toEqual([1, 2]);
    expect(s1.temperature_c[29]).toBe(14);
    expect(s1.temperature_max_c[29]).toBe(18);
    expect(s1.temperature_c[28]).toBe(30);
    expect(s1.humidity_pct[29]).toBe(45);
    expect(s1.temperature_c[27]).toBeNull();
    // 1.5 L between the first two samples, then a reset counts its new reading (0.5 L).
    expect(s1.volume_l[29]).toBe(2);
    expect(data.classes).toEqual([
      { class_id: expect.any(Number), name: '001Copepod', count: 2 },
      { class_id: expect.any(Number), name: '003Dinoflagellate', count: 1 },
      { class_id: null, name: null, count: 1 },
    ]);
    // A viewer in another zone gets the same kind of answer from the hour rollups, days at their own midnight.
    const utc = await view<{ start: number; stations: { dev_id: string; rois: number[] }[]; classes: { count: number }[] }>(
      '/api/views/roi30?tz=0',
    );
    expect(utc.start).toBe(Date.UTC(2026, 9, 24));
    expect(utc.stations.find((s) => s.dev_id === 'A1')!.rois.slice(-2)).toEqual([3, 0]);
    expect(utc.classes.reduce((a, c) => a + c.count, 0)).toBe(4);
    const one = await view<{ stations: { dev_id: string }[] }>(`/api/views/roi30?ipp_id=${a2.id}`);
    expect(one.stations.map((s) => s.dev_id)).toEqual(['A2']);
    expect(body(await get(env, `/api/views/roi30?ipp_id=${b1.id}`, w.tokens.user)).model?.field).toBe('ipp_id');
  });

  it('gives a station histogram with the top 6 classes, others, concentration, and the same data as CSV', async () => {
    // Three samples an hour apart: 2 L sampled in each of the last two hours.
    await telemetry(env, a1.key, { at: now() - 2 * HOUR, volume_total_l: 10, temperature_c: 12 });
    await telemetry(env, a1.key, { at: now() - 1 * HOUR, volume_total_l: 12, temperature_c: 13 });
    await telemetry(env, a1.key, { at: now(), volume_total_l: 14, temperature_c: 14 });
    // Eight classes with 8, 7, … 1 ROIs in the previous hour.
    for (let label = 1; label <= 8; label++) {
      for (let i = 0; i <= 8 - label; i++) await roi(a1.key, now() - HOUR + i * MIN, label);
    }
    await roi(a1.key, now() - 2 * HOUR, 1);
    const site = await view<{
      start: number;
      end: number;
      bucket_ms: number;
      buckets: {
        start: number;
        count: number;
        volume_l: number;
        concentration_per_l: number | null;
        temperature_c: number | null;
      }[];
      top_classes: { name: string; count: number }[];
      others: number;
      total: number;
    }>('/api/roi/get-site-roi?dev_id=A1&period=24h&points=24');
    expect(site.bucket_ms).toBe(HOUR);
    expect(site.buckets).toHaveLength(24);
    expect(site.end).toBe(now() + HOUR);
    expect(site.total).toBe(37);
    expect(site.top_classes.map((c) => c.count)).toEqual([9, 7, 6, 5, 4, 3]);
    expect(site.others).toBe(3);
    const previous = site.buckets[22]!;
    expect(previous).toMatchObject({ count: 36, volume_l: 2, concentration_per_l: 18, temperature_c: 13 });
    expect(site.buckets[21]).toMatchObject({ count: 1, volume_l: 0, concentration_per_l: null, temperature_c: 12 });
    // 7 days in 48 points: 4-hour buckets; 1 year: whole local days.
    const week = await view<{ bucket_ms: number; buckets: unknown[] }>('/api/roi/get-site-roi?dev_id=A1&period=7d&points=48');
    expect(week.bucket_ms).toBe(4 * HOUR);
    expect(week.buckets).toHaveLength(42);
    const year = await view<{ bucket_ms: number; total: number }>('/api/roi/get-site-roi?dev_id=A1&period=1y&points=60&tz=480');
    expect(year.bucket_ms).toBe(7 * 24 * HOUR);
    expect(year.total).toBe(37);
    const all = await view<{ start: number; total: number }>('/api/roi/get-site-roi?dev_id=A1&period=all');
    expect(all.start).toBeLessThanOrEqual(now() - 2 * HOUR);
    expect(all.total).toBe(37);
    expect(body(await get(env, '/api/roi/get-site-roi?dev_id=B1&period=24h', w.tokens.user)).model?.field).toBe('dev_id');
    expect(body(await get(env, '/api/roi/get-site-roi?dev_id=A1&period=2w', w.tokens.user)).model?.field).toBe('period');

    const csv = await get(env, '/api/roi/export-site-data?dev_id=A1&period=24h&points=24&tz=0', w.tokens.user);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('A1-24h.csv');
    expect(Number(csv.headers['content-length'])).toBe(csv.rawPayload.length);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(25);
    const header = lines[0]!.split(',');
    expect(header.slice(0, 7)).toEqual([
      'bucket_start',
      'bucket_end',
      'rois',
      'volume_l',
      'concentration_per_l',
      'temperature_c',
      'humidity_pct',
    ]);
    expect(header.slice(7, -2)).toHaveLength(8);
    expect(header.slice(-2)).toEqual(['bucket_start_utc', 'bucket_end_utc']);
    expect(header).toContain('008Bubble');
    const row = lines[23]!.split(',');
    expect(row[0]).toBe('2026-11-22T07:00:00+00:00');
    expect(row.slice(-2)).toEqual(['2026-11-22T07:00:00Z', '2026-11-22T08:00:00Z']);
    expect(row.slice(2, 5)).toEqual(['36', '2', '18']);
    expect(
      row
        .slice(7, -2)
        .map(Number)
        .reduce((a, b) => a + b, 0),
    ).toBe(36);
  });

  it('shows the favourites wall up to its maximum, the latest images and the last insert time', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await roi(a1.key, now() - i * MIN, 1));
    const other = await roi(b1.key, now(), 1);
    expect(await view('/api/dashboard/get-last-insert-time')).toEqual({ at: now(), received_at: now() });
    for (const id of ids) {
      env.clock.advance(1000);
      expect(body(await call(env, w.tokens.user, 'POST', '/api/roi/set-favorite', { roi_id: id, favorite: true })).code).toBe(
        1000,
      );
    }
    expect(
      body(await call(env, w.tokens.user, 'POST', '/api/roi/set-favorite', { roi_id: other, favorite: true })).model?.field,
    ).toBe('roi_id');
    await call(env, w.tokens.superadmin, 'POST', '/api/setting/save', { wall_max: 3 });
    const wall = await view<{ total: number; max: number; items: { id: number; favorite: boolean }[] }>('/api/views/wall');
    expect(wall.total).toBe(4);
    expect(wall.max).toBe(3);
    expect(wall.items.map((i) => i.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(wall.items.every((i) => i.favorite)).toBe(true);
    const latest = await view<{ id: number }[]>(`/api/views/rois?ipp_id=${a1.id}&limit=2`);
    expect(latest.map((r) => r.id)).toEqual([ids[0], ids[1]]);
    expect(body(await get(env, `/api/views/rois?ipp_id=${b1.id}`, w.tokens.user)).code).toBe(1002);
  });

  it('gives the latest image time as when the newest image was captured, not when rows were written', async () => {
    const t0 = now();
    expect(await view('/api/dashboard/get-last-insert-time')).toEqual({ at: null, received_at: null });
    // An image captured 3 h ago arrives now; 10 min later a backlog image captured 5 h ago arrives.
    await roi(a1.key, t0 - 3 * HOUR, 1);
    env.clock.advance(10 * MIN);
    await roi(a2.key, t0 - 5 * HOUR, 1);
    // Another team's newer image is not the user's.
    await roi(b1.key, t0 - HOUR, 1);
    expect(await view('/api/dashboard/get-last-insert-time')).toEqual({ at: t0 - 3 * HOUR, received_at: t0 + 10 * MIN });
    expect(await view('/api/dashboard/get-last-insert-time', w.tokens.superadmin)).toMatchObject({ at: t0 - HOUR });
    // The instrument list's "latest image" is the capture time too.
    const list = await view<{ dev_id: string; last_image_at: number | null }[]>('/api/ipp/index?page=1&limit=10');
    expect(Object.fromEntries(list.map((i) => [i.dev_id, i.last_image_at]))).toEqual({
      A1: t0 - 3 * HOUR,
      A2: t0 - 5 * HOUR,
    });
  });

  it('shows one image with the instrument state at capture time and its neighbours', async () => {
    await telemetry(env, a1.key, { at: now() - 10 * MIN, temperature_c: 11 });
    await telemetry(env, a1.key, { at: now() - 2 * MIN, temperature_c: 12.5, wiper_state: 'cleaning' });
    const first = await roi(a1.key, now() - 5 * MIN, 1);
    const second = await roi(a1.key, now() - MIN, 2);
    const third = await roi(a1.key, now(), 2);
    const details = await view<{
      roi: { id: number };
      telemetry: { temperature_c: number; wiper_state: string } | null;
      previous_id: number | null;
      next_id: number | null;
    }>(`/api/roi/get-roi-details?roi_id=${second}`);
    expect(details).toMatchObject({
      roi: { id: second },
      telemetry: { temperature_c: 12.5, wiper_state: 'cleaning' },
      previous_id: first,
      next_id: third,
    });
    const oldest = await view<{ telemetry: { temperature_c: number }; previous_id: number | null }>(
      `/api/roi/get-roi-details?roi_id=${first}`,
    );
    expect(oldest).toMatchObject({ telemetry: { temperature_c: 11 }, previous_id: null });
    const missing = body(await get(env, '/api/roi/get-roi-details?roi_id=999999', w.tokens.user));
    expect(missing).toMatchObject({ code: 1002, msg: 'ROI info. obtain fail' });
  });
});
