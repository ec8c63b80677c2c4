import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    const hours = (ipps as unknown as { dev_id: string; online_hours: number }[])
      .filter((i) => i.online)
      .map((i) => i.online_hours);
    for (const h of hours) expect(h).toBeGreaterThan(71);
    expect(ipps.reduce((a, i) => a + i.total_images, 0)).toBe(result.rois);
    const again = await seedDemoHistory(env.db, env.clock.read, env.app.devices, env.app.rois);
    expect(again.created).toBe(false);
  });
});
