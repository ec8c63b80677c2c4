import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoiDetails, RoiItem } from '@ipp/contracts';
import { roiFlagsMigration } from '../src/db/migrations/0021-roi-flags.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

const MIN = 60_000;

/**
 * ROI flags (issue 23): the instrument's state at capture from the telemetry sample at or before it: the wiper
 * cleaning (or cleaned less than a minute before), the UV-C illuminator on, the internal temperature out of 0–35 °C.
 */
describe.each(dialects)('ROI flags on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1 = { id: 0, key: '' };
  let seed = 0;
  const t0 = () => env.clock.now - 3 * 60 * MIN;
  const send = async (at: number, sample: object) =>
    expect(body(await telemetry(env, a1.key, { at, ...sample })).code).toBe(1000);
  const image = async (at: number) => {
    const res = body(await uploadRoi(env, a1.key, { captured_at: at, label_index: 1, size_px: 900 }, await pngOf(++seed)));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return (res.data as { roi_id: number }).roi_id;
  };
  const list = async (query: string) => {
    const res = body(
      await call(env, w.tokens.user, 'GET', `/api/roi/index?category_id=-100&ipp_id=${a1.id}&diysort=id&sorttype=asc&${query}`),
    );
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return { ids: (res.data as { items: RoiItem[] }).items.map((r) => r.id), count: res.count };
  };
  const ids: Record<string, number> = {};

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const quiet = { wiper_state: 'idle', uvc_illuminator_duty_pct: 0, temperature_c: 20 };
    await send(t0(), quiet);
    ids.clean = await image(t0() + MIN);
    await send(t0() + 10 * MIN, { ...quiet, wiper_state: 'cleaning' });
    ids.cleaning = await image(t0() + 10 * MIN + 5000);
    // A clean lasts seconds: three minutes later the same sample says nothing of the image.
    ids.afterCleaning = await image(t0() + 13 * MIN);
    await send(t0() + 20 * MIN, { ...quiet, wiper_last_clean_at: t0() + 20 * MIN - 30_000 });
    ids.justCleaned = await image(t0() + 20 * MIN + 10_000);
    ids.settled = await image(t0() + 20 * MIN + 60_000);
    await send(t0() + 30 * MIN, { ...quiet, uvc_illuminator_duty_pct: 50, temperature_c: 38 });
    ids.uvcHot = await image(t0() + 31 * MIN);
    // More than 10 minutes after the last sample: nothing known, nothing flagged.
    ids.unknown = await image(t0() + 45 * MIN);
    // An image stored before the sample that reports the clean it followed is flagged when that sample arrives.
    ids.beforeReport = await image(t0() + 50 * MIN + 20_000);
    await send(t0() + 51 * MIN, { ...quiet, wiper_last_clean_at: t0() + 50 * MIN });
  });
  afterEach(() => env.close());

  it('flags each image from the sample at or before its capture and shows the flags with it', async () => {
    const flags = async (id: number) => {
      const res = body(await call(env, w.tokens.user, 'GET', `/api/roi/get-roi-details?roi_id=${id}`));
      return (res.data as RoiDetails).roi.flags;
    };
    expect(await flags(ids.clean!)).toEqual([]);
    expect(await flags(ids.cleaning!)).toEqual(['wiper']);
    expect(await flags(ids.afterCleaning!)).toEqual([]);
    expect(await flags(ids.beforeReport!)).toEqual(['wiper']);
    expect(await flags(ids.justCleaned!)).toEqual(['wiper']);
    expect(await flags(ids.settled!)).toEqual([]);
    expect(await flags(ids.uvcHot!)).toEqual(['uvc', 'temperature']);
    expect(await flags(ids.unknown!)).toEqual([]);
  });

  it('filters the identify list by any flag, no flag or one flag, and counts the matches', async () => {
    expect(await list('flag=any')).toEqual({ ids: [ids.cleaning, ids.justCleaned, ids.uvcHot, ids.beforeReport], count: 4 });
    expect(await list('flag=none')).toEqual({
      ids: [ids.clean, ids.afterCleaning, ids.settled, ids.unknown],
      count: 4,
    });
    expect(await list('flag=wiper')).toEqual({ ids: [ids.cleaning, ids.justCleaned, ids.beforeReport], count: 3 });
    expect(await list('flag=uvc')).toEqual({ ids: [ids.uvcHot], count: 1 });
    expect(await list('flag=temperature')).toEqual({ ids: [ids.uvcHot], count: 1 });
    const wrong = body(await call(env, w.tokens.user, 'GET', `/api/roi/index?category_id=-100&ipp_id=${a1.id}&flag=fog`));
    expect(wrong).toMatchObject({ code: 1002, msg: expect.stringContaining('flag') });
  });

  it('migration 0021 gives existing images the flags the ingest gives', async () => {
    const k = env.db.kysely;
    const snapshot = async () =>
      (await sql<{ id: number; flags: number }>`select id, flags from rois order by id`.execute(k)).rows;
    const before = await snapshot();
    expect(before.some((r) => r.flags !== 0)).toBe(true);
    await roiFlagsMigration(env.db.dialect).down(k as never);
    await roiFlagsMigration(env.db.dialect).up(k as never);
    expect(await snapshot()).toEqual(before);
  });
});
