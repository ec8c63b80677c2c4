import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, get, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';
import { loadFeatures } from '../src/modules/recognition/features.repository.ts';
import { storeRecomputedFeatures } from '../src/modules/recognition/recomputed-features.ts';
import { VECTOR_VERSION } from '../src/modules/recognition/vector.ts';
import type { SiteEcology } from '@ipp/contracts';

const HOUR = 3_600_000;
const MIN = 60_000;

describe.each(dialects)('ecology products on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let seed = 0;
  const now = () => env.clock.now;
  const classOf = async (label: number) =>
    (await env.db.kysely.selectFrom('classes').select('id').where('label_index', '=', label).executeTakeFirstOrThrow()).id;
  const roi = async (key: string, capturedAt: number, label: number) => {
    const res = body(
      await uploadRoi(env, key, { captured_at: capturedAt, label_index: label, size_px: 2500 }, await pngOf(++seed)),
    );
    if (res.code !== 1000) throw new Error(JSON.stringify(res));
    return (res.data as { roi_id: number }).roi_id;
  };
  /** As a training run stores features computed again: the ROI's measured biovolume becomes `px3`. */
  const measure = async (roiId: number, px3: number) =>
    env.db.kysely.transaction().execute(async (trx) => {
      const f = (await loadFeatures(trx, [roiId], VECTOR_VERSION)).get(roiId)!;
      await storeRecomputedFeatures(
        trx,
        [{ ...f, measures: { ...f.measures, biovolume_px3: px3 } }],
        env.db.dialect === 'postgres',
      );
    });
  const ecology = async (query: string, token = w.tokens.user) => {
    const res = body(await get(env, `/api/ecology/get-site-ecology?${query}`, token));
    if (res.code !== 1000) throw new Error(`${query}: ${JSON.stringify(res)}`);
    return res.data as SiteEcology;
  };
  let class1 = 0;
  let class2 = 0;

  beforeEach(async () => {
    env = await buildTestApp(dialect, { config: { STATS_UTC_OFFSET: 8 } });
    w = await buildWorld(env);
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { pixel_size_um: 2 });
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    class1 = await classOf(1);
    class2 = await classOf(2);
    // 2 L sampled in the previous hour and 2 L in the current one.
    for (const [at, total] of [
      [now() - 2 * HOUR, 10],
      [now() - HOUR, 12],
      [now(), 14],
    ] as const) {
      await telemetry(env, a1.key, { at, volume_total_l: total });
      await telemetry(env, a2.key, { at, volume_total_l: total });
    }
    // In the previous hour: two ROIs of class 1 (1000 and 3000 px³), one of class 2 (2500 px³), one unclassified
    // with nothing measured.
    const ids = [
      await roi(a1.key, now() - HOUR + MIN, 1),
      await roi(a1.key, now() - HOUR + 2 * MIN, 1),
      await roi(a1.key, now() - HOUR + 3 * MIN, 2),
      await roi(a1.key, now() - HOUR + 4 * MIN, 0),
    ];
    for (const [i, px3] of [1000, 3000, 2500, 0].entries()) await measure(ids[i]!, px3);
    await roi(a2.key, now() - HOUR + MIN, 1);
  });
  afterEach(() => env.close());

  it('gives concentration, biovolume concentration and the NBSS in physical units', async () => {
    const site = await ecology('dev_id=A1&period=24h&points=24');
    // 2 µm per pixel: 1 px³ = 8 µm³ = 8·10⁻⁹ mm³.
    expect(site).toMatchObject({ pixel_size_um: 2, volume_l: 4, count: 4, measured: 3, concentration_per_l: 1, selected: [] });
    expect(site.biovolume_mm3).toBeCloseTo(6500 * 8e-9, 15);
    expect(site.biovolume_mm3_per_l).toBeCloseTo((6500 * 8e-9) / 4, 15);
    expect(
      site.classes.map((c) => [c.class_id, c.count, c.measured, c.biovolume_mm3 && Math.round(c.biovolume_mm3 / 8e-9)]),
    ).toEqual([
      [class1, 2, 2, 4000],
      [class2, 1, 1, 2500],
      [null, 1, 0, 0],
    ]);
    expect(site.classes[0]!.name).toBeTruthy();
    expect(site.buckets).toHaveLength(24);
    expect(site.buckets[22]).toMatchObject({ count: 4, volume_l: 2, concentration_per_l: 2 });
    expect(site.buckets[22]!.biovolume_mm3_per_l).toBeCloseTo((6500 * 8e-9) / 2, 15);
    expect(site.buckets[23]).toMatchObject({ count: 0, volume_l: 2, concentration_per_l: 0, biovolume_mm3: 0 });
    expect(site.buckets[21]).toMatchObject({ count: 0, volume_l: 0, concentration_per_l: null, biovolume_mm3_per_l: null });
    // NBSS: size class 9 holds [512, 1024) px³, 11 holds [2048, 4096) px³; NBSS = biovolume / 4 L / class width.
    const [total, ...perClass] = site.nbss;
    expect(total).toMatchObject({ total: true, class_id: null, slope: null });
    expect(total!.points.map((p) => [p.size_class, p.count])).toEqual([
      [9, 1],
      [11, 2],
    ]);
    expect(total!.points[0]!.nbss_per_l).toBeCloseTo((1000 * 8e-9) / 4 / (512 * 8e-9), 5);
    expect(total!.points[1]!.nbss_per_l).toBeCloseTo((5500 * 8e-9) / 4 / (2048 * 8e-9), 5);
    expect(total!.points[1]).toMatchObject({ min_mm3: 2048 * 8e-9, max_mm3: 4096 * 8e-9 });
    // The middle of [2048, 4096) px³ at 2 µm/px is a sphere of diameter (6·√(2048·4096)·8/π)^(1/3) µm.
    expect(total!.points[1]!.esd_um).toBeCloseTo(Math.cbrt((6 * Math.sqrt(2048 * 4096) * 8) / Math.PI), 3);
    expect(perClass.map((s) => [s.class_id, s.points.map((p) => p.size_class)])).toEqual([
      [class1, [9, 11]],
      [class2, [11]],
    ]);
  });

  it('narrows everything to a selection of classes, and the day rollups answer long periods alike', async () => {
    const one = await ecology(`dev_id=A1&period=24h&points=24&classes=${class2}`);
    expect(one).toMatchObject({ selected: [class2], count: 1, measured: 1, concentration_per_l: 0.25 });
    expect(one.biovolume_mm3).toBeCloseTo(2500 * 8e-9, 15);
    expect(one.classes).toHaveLength(3); // the picker still lists every class
    expect(one.nbss.map((s) => [s.total, s.class_id])).toEqual([
      [true, null],
      [false, class2],
    ]);
    const unclassified = await ecology('dev_id=A1&period=24h&points=24&classes=0');
    expect(unclassified).toMatchObject({ count: 1, measured: 0, biovolume_mm3: 0, nbss: [] });
    const year = await ecology(`dev_id=A1&period=1y&points=60&tz=480&classes=${class1},${class2}`);
    expect(year.bucket_ms).toBe(7 * 24 * HOUR);
    expect(year).toMatchObject({ count: 3, measured: 3, volume_l: 4 });
    expect(year.biovolume_mm3).toBeCloseTo(6500 * 8e-9, 15);
  });

  it('says so instead of guessing when a station has no pixel size', async () => {
    const site = await ecology('dev_id=A2&period=24h&points=24');
    expect(site).toMatchObject({ pixel_size_um: null, count: 1, concentration_per_l: 0.25, biovolume_mm3: null, nbss: [] });
    expect(site.buckets[22]).toMatchObject({
      count: 1,
      concentration_per_l: 0.5,
      biovolume_mm3: null,
      biovolume_mm3_per_l: null,
    });
    expect(site.classes[0]!.biovolume_mm3).toBeNull();
  });

  it("refuses other teams' stations and bad selections in the envelope, in the caller's language", async () => {
    expect(body(await get(env, '/api/ecology/get-site-ecology?dev_id=B1&period=24h', w.tokens.user)).model?.field).toBe('dev_id');
    for (const classes of ['1,x', '-1', '1,,2', Array.from({ length: 13 }, (_, i) => i + 1).join(',')]) {
      const res = body(await get(env, `/api/ecology/get-site-ecology?dev_id=A1&classes=${classes}`, w.tokens.user));
      expect(res, classes).toMatchObject({ code: 1002, model: { field: 'classes' } });
    }
    expect(body(await get(env, '/api/ecology/get-site-ecology?dev_id=A1', undefined)).code).toBe(1010);
    const zh = body(await get(env, '/api/ecology/get-site-ecology?dev_id=B1', w.tokens.user, 'zh'));
    expect(zh.msg ?? JSON.stringify(zh)).toMatch(/[\u4e00-\u9fff]/);
    // The superadmin reads any team's station.
    expect((await ecology('dev_id=B1&period=24h', w.tokens.superadmin)).count).toBe(0);
  });

  it('writes the series and the NBSS as CSV', async () => {
    const series = await get(env, '/api/ecology/export-site-ecology?dev_id=A1&period=24h&points=24&tz=0', w.tokens.user);
    expect(series.headers['content-type']).toContain('text/csv');
    expect(series.headers['content-disposition']).toContain('A1-24h-series.csv');
    const rows = series.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe(
      'station,classes,bucket_start,bucket_end,volume_l,rois,concentration_per_l,pixel_size_um,biovolume_mm3,biovolume_mm3_per_l,bucket_start_utc,bucket_end_utc',
    );
    expect(rows).toHaveLength(25);
    expect(rows[23]).toBe(
      'A1,all classes,2026-11-22T07:00:00+00:00,2026-11-22T08:00:00+00:00,2,4,2,2,0.000052,0.000026,2026-11-22T07:00:00Z,2026-11-22T08:00:00Z',
    );
    const nbss = await get(
      env,
      `/api/ecology/export-site-ecology?dev_id=A1&period=24h&points=24&table=nbss&classes=${class1}`,
      w.tokens.user,
    );
    const lines = nbss.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'station,series,period_start,period_end,volume_l,pixel_size_um,size_class,biovolume_min_mm3,biovolume_max_mm3,esd_um,rois,biovolume_mm3,nbss_per_l,slope,period_start_utc,period_end_utc',
    );
    // The total of the selection, then class 1 alone: two size classes each.
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(
      /^A1,total: [^,]+,2026-11-21T09:00:00\+00:00,2026-11-22T09:00:00\+00:00,4,2,9,.*,2026-11-21T09:00:00Z,2026-11-22T09:00:00Z$/,
    );
  });

  it('answers two callers at once alike, each within their own bound', async () => {
    const url = '/api/ecology/get-site-ecology?dev_id=A1&period=7d&points=48';
    const [a, b] = await Promise.all([get(env, url, w.tokens.user), get(env, url, w.tokens.ownAdmin)]);
    expect(body(a).code).toBe(1000);
    expect(body(a).data).toEqual(body(b).data);
  });
});
