import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TREND_SERIES, type TelemetryTrend } from '@ipp/contracts';
import { ensureDayRollups } from '../src/modules/stats/rollups.repository.ts';
import { telemetryTrendsMigration } from '../src/db/migrations/0019-telemetry-trends.ts';
import { buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, get, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

const HOUR = 3_600_000;
const MIN = 60_000;

describe.each(dialects)('engineering trends on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1 = { id: 0, key: '' };
  const now = () => env.clock.now;
  const hourStart = () => Math.floor(now() / HOUR) * HOUR;
  const trend = async (query: string, token = w.tokens.user) => {
    const res = body(await get(env, `/api/ipp/telemetry-trend?${query}`, token));
    if (res.code !== 1000) throw new Error(`${query}: ${JSON.stringify(res)}`);
    return res.data as TelemetryTrend;
  };
  const series = (t: TelemetryTrend, key: string) => t.series.find((s) => s.key === key)!;
  const send = async (key: string, sample: object) => {
    const res = body(await telemetry(env, key, sample));
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect, { config: { STATS_UTC_OFFSET: 8 } });
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    // Previous hour: three samples; the current hour: one, without board currents; team B's station reports too.
    const previous = hourStart() - HOUR;
    await send(a1.key, { at: previous + MIN, cb_current_a: 1.5, cpu_temp_c: 50, wiper_state: 'idle', storage_gb: 100 });
    await send(a1.key, { at: previous + 2 * MIN, cb_current_a: 2.5, cpu_temp_c: 60, wiper_state: 'cleaning', storage_gb: 99 });
    await send(a1.key, { at: previous + 3 * MIN, cb_current_a: 2, cpu_temp_c: 70, wiper_state: 'fault', storage_gb: 98 });
    await send(a1.key, { at: hourStart() + MIN, cpu_temp_c: 40, wiper_state: 'idle', storage_gb: 97 });
    await send(b1.key, { at: previous + MIN, cb_current_a: 9, cpu_temp_c: 90 });
  });
  afterEach(() => env.close());

  it('gives mean, min and max of every series per hour, null where nothing was reported', async () => {
    const t = await trend('dev_id=A1&period=24h&points=24');
    expect(t).toMatchObject({ dev_id: 'A1', bucket_ms: HOUR, end: hourStart() + HOUR });
    expect(t.series.map((s) => s.key)).toEqual([...TREND_SERIES]);
    expect(t.samples.slice(-2)).toEqual([3, 1]);
    expect(t.samples.slice(0, -2).every((n) => n === 0)).toBe(true);
    const cb = series(t, 'cb_current_a');
    expect([cb.mean.at(-2), cb.min.at(-2), cb.max.at(-2)]).toEqual([2, 1.5, 2.5]);
    expect([cb.mean.at(-1), cb.min.at(-1), cb.max.at(-1)]).toEqual([null, null, null]);
    const cpu = series(t, 'cpu_temp_c');
    expect([cpu.mean.at(-2), cpu.min.at(-2), cpu.max.at(-2)]).toEqual([60, 50, 70]);
    expect(cpu.mean.at(-1)).toBe(40);
    expect(series(t, 'gpu_temp_c').mean.every((v) => v === null)).toBe(true);
    expect(t.wiper_cleaning_pct.slice(-2)).toEqual([33.33, 0]);
    expect(t.wiper_fault_pct.slice(-2)).toEqual([33.33, 0]);
    expect(t.wiper_fault_pct[0]).toBeNull();
  });

  it('answers day buckets from the day rollups with the same sums', async () => {
    const t = await trend('dev_id=A1&period=1m&points=30&tz=480');
    expect(t.bucket_ms).toBe(24 * HOUR);
    expect(t.samples.reduce((a, b) => a + b, 0)).toBe(4);
    const storage = series(t, 'storage_gb');
    const filled = storage.mean.flatMap((v, i) => (v === null ? [] : [[v, storage.min[i], storage.max[i]]]));
    // The four samples fall in one or two statistics days (UTC+8) depending on the hour.
    if (filled.length === 1) expect(filled[0]).toEqual([98.5, 97, 100]);
    else
      expect(filled).toEqual([
        [99, 98, 100],
        [97, 97, 97],
      ]);
  });

  it('a retried sample (same time) is counted once', async () => {
    await send(a1.key, { at: hourStart() + MIN, cpu_temp_c: 40, storage_gb: 97 });
    const t = await trend('dev_id=A1&period=24h&points=24');
    expect(t.samples.at(-1)).toBe(1);
  });

  it('two callers at once, while the station reports: both answered, the report counted once', async () => {
    const sample = { at: hourStart() + 2 * MIN, cpu_temp_c: 44 };
    const [one, two] = await Promise.all([
      trend('dev_id=A1&period=24h&points=24'),
      trend('dev_id=A1&period=24h&points=24', w.tokens.ownAdmin),
      send(a1.key, sample),
      send(a1.key, sample),
    ]);
    // Each read saw the sample or not, never half of it.
    for (const t of [one, two]) expect([1, 2]).toContain(t.samples.at(-1));
    const after = await trend('dev_id=A1&period=24h&points=24');
    expect(after.samples.at(-1)).toBe(2);
    expect(series(after, 'cpu_temp_c').mean.at(-1)).toBe(42);
  });

  it("another team's station is unknown to the caller; the superadmin reads every team's", async () => {
    const res = body(await get(env, '/api/ipp/telemetry-trend?dev_id=B1&period=24h', w.tokens.user));
    expect(res.code).not.toBe(1000);
    expect(JSON.stringify(res)).not.toContain('cb_current_a');
    const all = await trend('dev_id=B1&period=24h&points=24', w.tokens.superadmin);
    expect(series(all, 'cb_current_a').max.at(-2)).toBe(9);
  });

  it('the day rows rebuilt at another statistics-day offset and back equal those the ingest kept', async () => {
    const k = env.db.kysely;
    const days = async () => (await sql`select * from telemetry_trend_day order by ipp_id, day`.execute(k)).rows;
    const before = await days();
    expect(await ensureDayRollups(k, env.db.dialect, 0)).toBe(true);
    const atZero = await days();
    expect(atZero.map((r) => Number((r as { day: number }).day) % (24 * HOUR))).toEqual(atZero.map(() => 0));
    expect(await ensureDayRollups(k, env.db.dialect, 8)).toBe(true);
    expect(await days()).toEqual(before);
  });

  it('migration 0019 rolls existing telemetry up exactly as the ingest does', async () => {
    const k = env.db.kysely;
    const snapshot = async () =>
      Promise.all([
        sql`select * from telemetry_trend_hour order by ipp_id, hour`.execute(k),
        sql`select * from telemetry_trend_day order by ipp_id, day`.execute(k),
      ]).then(([h, d]) => [h.rows, d.rows]);
    const before = await snapshot();
    expect(before[0]!.length).toBe(3);
    const migration = telemetryTrendsMigration(env.db.dialect);
    await migration.down(k as never);
    await migration.up(k as never);
    expect(await snapshot()).toEqual(before);
  });
});
