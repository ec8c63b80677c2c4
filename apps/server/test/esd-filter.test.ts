import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

/**
 * The size filter in µm (issue 22): ESD = 2·√(area/π)·pixel size. At 5 µm per pixel the areas 100, 400 and 1600 px²
 * are ESDs of 56.4, 112.8 and 225.7 µm; a station without a pixel size matches no µm bound.
 */
describe.each(dialects)('the ESD filter on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let measured: { id: number; key: string };
  let unknown: { id: number; key: string };

  const list = async (ippId: number, query: string, lang = 'en') =>
    body(
      await call(
        env,
        w.tokens.user,
        'GET',
        `/api/roi/index?category_id=-100&ipp_id=${ippId}&diysort=size&sorttype=asc&${query}`,
        undefined,
        lang,
      ),
    );
  const sizes = async (ippId: number, query: string) => {
    const res = await list(ippId, query);
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return { sizes: (res.data as { items: { size_px: number }[] }).items.map((r) => r.size_px), count: res.count };
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    measured = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'P1', { pixel_size_um: 5 });
    unknown = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'N1');
    let seed = 10;
    for (const station of [measured, unknown])
      for (const [i, size] of [100, 400, 1600].entries())
        expect(
          body(
            await uploadRoi(
              env,
              station.key,
              { captured_at: Date.UTC(2026, 10, 20, 1, i), label_index: 1, size_px: size },
              await pngOf(seed++),
            ),
          ).code,
        ).toBe(1000);
  });
  afterEach(() => env.close());

  it('keeps the objects whose ESD is within the bounds, counts them, and matches nothing without a pixel size', async () => {
    expect(await sizes(measured.id, 'esd_min_um=100')).toEqual({ sizes: [400, 1600], count: 2 });
    expect(await sizes(measured.id, 'esd_max_um=112.9')).toEqual({ sizes: [100, 400], count: 2 });
    expect(await sizes(measured.id, 'esd_min_um=56.5&esd_max_um=112.9')).toEqual({ sizes: [400], count: 1 });
    expect(await sizes(measured.id, 'esd_min_um=226')).toEqual({ sizes: [], count: 0 });
    // The µm bounds narrow the pixel bounds, never widen them.
    expect(await sizes(measured.id, 'esd_min_um=50&coordRange_0=1000&coordRange_1=5000')).toEqual({ sizes: [1600], count: 1 });
    expect(await sizes(unknown.id, 'esd_min_um=1')).toEqual({ sizes: [], count: 0 });
    expect(await sizes(unknown.id, '')).toMatchObject({ count: 3 });
    // An export of the filtered list takes the same ROIs.
    const csv = await env.app.inject({
      method: 'POST',
      url: '/api/roi/export',
      headers: { 'x-token': w.tokens.user ?? '' },
      payload: { format: 'csv', query: { category_id: -100, ipp_id: measured.id, esd_min_um: 100 } },
    });
    expect(csv.headers['x-total-count']).toBe('2');
  });

  it('refuses a bound that is not a size, in the caller language', async () => {
    expect(await list(measured.id, 'esd_min_um=-1', 'zh')).toMatchObject({ code: 1002, msg: '参数错误：esd_min_um 不能小于 0' });
    expect(await list(measured.id, 'esd_max_um=abc')).toMatchObject({ code: 1002 });
  });
});
