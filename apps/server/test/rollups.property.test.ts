import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld } from './helpers/actors.ts';
import { ensureDayRollups } from '../src/modules/stats/rollups.repository.ts';
import { classCounts, classCountsBetween } from '../src/modules/stats/stats.repository.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp } from './helpers/device.ts';
import { sizeClassOf } from '@ipp/contracts';
import { loadFeatures } from '../src/modules/recognition/features.repository.ts';
import { storeRecomputedFeatures } from '../src/modules/recognition/recomputed-features.ts';
import { VECTOR_VERSION } from '../src/modules/recognition/vector.ts';
import { findRoisCore } from '../src/modules/rois/rois.repository.ts';

const HOUR = 3_600_000;

type Op =
  | { kind: 'ingest'; station: number; label: number; hourOffset: number; minute: number }
  | { kind: 'reclassify'; pick: number; label: number }
  | { kind: 'move'; pick: number; station: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'remeasure'; pick: number; biovolume: number }
  | { kind: 'recycle'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('ingest' as const),
      station: fc.nat(2),
      label: fc.nat(9),
      hourOffset: fc.nat(72),
      minute: fc.nat(59),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reclassify' as const), pick: fc.nat(), label: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), station: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('remeasure' as const),
      pick: fc.nat(),
      // 0 (nothing segmented), within one size class of another, and across classes.
      biovolume: fc.oneof(fc.constant(0), fc.double({ min: 0.5, max: 1e9, noNaN: true })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recycle' as const), pick: fc.nat() }) },
);

/**
 * The rollups must always equal a GROUP BY over the ROIs, whatever sequence of ingest, reclassification, moves
 * and deletes happened (issue: "A test applies random operations and checks the rollups against a raw GROUP BY").
 */
describe.each(dialects)('rollups on %s', (dialect) => {
  let env: TestEnv;
  let stations: number[];
  let seed = 0;
  beforeAll(async () => {
    env = await buildTestApp(dialect, { config: { STATS_UTC_OFFSET: 8 } });
    const w = await buildWorld(env);
    stations = [];
    for (const dev of ['R1', 'R2', 'R3']) stations.push((await registerIpp(env, w.tokens.ownAdmin, w.teamA, dev)).id);
    // A starting population, so every random sequence has rows to reclassify, move and delete.
    for (let i = 0; i < 20; i++) await apply({ kind: 'ingest', station: i % 3, label: i % 10, hourOffset: i * 3, minute: i });
  });
  afterAll(() => env.close());

  const classIdOf = async (label: number) =>
    label === 0 || label > 8
      ? null
      : (await env.db.kysely.selectFrom('classes').select('id').where('label_index', '=', label).executeTakeFirstOrThrow()).id;

  const applied: Record<Op['kind'], number> = { ingest: 0, reclassify: 0, move: 0, remove: 0, remeasure: 0, recycle: 0 };

  async function apply(op: Op) {
    const ids = (await env.db.kysely.selectFrom('rois').select('id').orderBy('id').execute()).map((r) => r.id);
    const picked = ids.length ? ids[('pick' in op ? op.pick : 0) % ids.length] : undefined;
    if (op.kind === 'ingest' || picked !== undefined) applied[op.kind]++;
    switch (op.kind) {
      case 'ingest':
        await env.app.rois.ingest({
          ippId: stations[op.station]!,
          capturedAt: env.clock.now - op.hourOffset * HOUR + op.minute * 60_000,
          labelIndex: op.label,
          confidence: 0.5,
          sizePx: 2000,
          data: await pngOf(++seed, 4),
        });
        break;
      case 'reclassify':
        if (picked !== undefined) await env.app.rois.setClass(picked, await classIdOf(op.label), op.label, op.label % 2);
        break;
      case 'move':
        if (picked !== undefined) await env.app.rois.moveToIpp(picked, stations[op.station]!);
        break;
      case 'remove':
        if (picked !== undefined) await env.app.rois.remove(picked);
        break;
      case 'remeasure':
        // As a training run or re-identification stores features computed again.
        if (picked !== undefined) {
          await env.db.kysely.transaction().execute(async (trx) => {
            const stored = await loadFeatures(trx, [picked], VECTOR_VERSION);
            const f = stored.get(picked);
            if (!f) return;
            await storeRecomputedFeatures(
              trx,
              [{ ...f, measures: { ...f.measures, biovolume_px3: op.biovolume } }],
              env.db.dialect === 'postgres',
            );
          });
        }
        break;
      case 'recycle':
        // Recycled ROIs count in no statistic; every third one is restored again.
        if (picked !== undefined) {
          await env.db.kysely.transaction().execute(async (trx) => {
            const rows = await findRoisCore(trx, [picked], env.db.dialect === 'postgres');
            if (rows[0]?.deleted_at === null) await env.app.rois.recycle(trx, rows, 1);
            else if (picked % 3 === 0) await env.app.rois.restore(trx, rows);
          });
        }
        break;
    }
  }

  /** Size rollups against the live ROIs, grouped here with the same size classes the server uses. */
  async function expectSizeRollupsMatchRows() {
    const k = env.db.kysely;
    const live = await k
      .selectFrom('rois')
      .select(['ipp_id', 'roi_time', 'class_id', 'biovolume_px3'])
      .where('deleted_at', 'is', null)
      .execute();
    const features = new Map(
      (await k.selectFrom('roi_features').select(['roi_id', 'biovolume']).execute()).map((f) => [f.roi_id, f.biovolume]),
    );
    const withIds = await k.selectFrom('rois').select(['id', 'biovolume_px3']).execute();
    // Each row carries its features' biovolume.
    for (const r of withIds) expect(r.biovolume_px3 ?? null, `roi ${r.id}`).toBe(features.get(r.id) ?? null);
    for (const [table, time, keyOf] of [
      ['roi_size_hour', 'hour', (t: number) => Math.floor(t / HOUR) * HOUR],
      ['roi_size_day', 'day', (t: number) => Math.floor((t + 8 * HOUR) / (24 * HOUR)) * 24 * HOUR - 8 * HOUR],
    ] as const) {
      const raw = new Map<string, { n: number; bv: number }>();
      for (const r of live) {
        const key = `${r.ipp_id}/${keyOf(Number(r.roi_time))}/${r.class_id ?? 0}/${sizeClassOf(r.biovolume_px3)}`;
        const sum = raw.get(key) ?? { n: 0, bv: 0 };
        sum.n += 1;
        sum.bv += r.biovolume_px3 !== null && r.biovolume_px3 > 0 ? r.biovolume_px3 : 0;
        raw.set(key, sum);
      }
      const rolled = (
        await sql<{
          ipp_id: number;
          t: number | string;
          class_key: number;
          size_class: number;
          n: number | string;
          bv_px3: number | string;
        }>`
        select ipp_id, ${sql.ref(time)} as t, class_key, size_class, n, bv_px3 from ${sql.table(table)} where n <> 0 or bv_px3 <> 0`.execute(
          k,
        )
      ).rows;
      const got = new Map(
        rolled.map((r) => [
          `${r.ipp_id}/${Number(r.t)}/${r.class_key}/${r.size_class}`,
          { n: Number(r.n), bv: Number(r.bv_px3) },
        ]),
      );
      expect([...got.keys()].sort(), table).toEqual([...raw.keys()].sort());
      for (const [key, want] of raw) {
        const have = got.get(key)!;
        expect(have.n, `${table} ${key}`).toBe(want.n);
        expect(Math.abs(have.bv - want.bv), `${table} ${key} biovolume`).toBeLessThanOrEqual(1e-9 * Math.max(1, want.bv));
      }
    }
  }

  async function expectRollupsMatchRows() {
    const k = env.db.kysely;
    const hourExpr = sql<number>`(roi_time / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`;
    const raw = await k
      .selectFrom('rois')
      .where('deleted_at', 'is', null)
      .select((eb) => [
        'ipp_id',
        hourExpr.as('hour'),
        eb.fn.coalesce('class_id', eb.lit(0)).as('class_key'),
        eb.fn.countAll().as('n'),
      ])
      .groupBy(['ipp_id', hourExpr, (eb) => eb.fn.coalesce('class_id', eb.lit(0))])
      .execute();
    const rollup = await k.selectFrom('roi_rollup_hour').selectAll().where('n', '<>', 0).execute();
    const norm = (rows: { ipp_id: number; hour: number | string; class_key: number | string; n: number | string | bigint }[]) =>
      rows.map((r) => `${r.ipp_id}/${Number(r.hour)}/${Number(r.class_key)}=${Number(r.n)}`).sort();
    expect(norm(rollup)).toEqual(norm(raw as never));
    const rawTotals = await k
      .selectFrom('rois')
      .where('deleted_at', 'is', null)
      .select((eb) => ['ipp_id', eb.fn.coalesce('class_id', eb.lit(0)).as('class_key'), eb.fn.countAll().as('n')])
      .groupBy(['ipp_id', (eb) => eb.fn.coalesce('class_id', eb.lit(0))])
      .execute();
    const totals = await k.selectFrom('roi_totals').selectAll().where('n', '<>', 0).execute();
    const normT = (rows: { ipp_id: number; class_key: number | string; n: number | string | bigint }[]) =>
      rows.map((r) => `${r.ipp_id}/${Number(r.class_key)}=${Number(r.n)}`).sort();
    expect(normT(totals)).toEqual(normT(rawTotals as never));
    const negative = await k.selectFrom('roi_rollup_hour').select('n').where('n', '<', 0).execute();
    expect(negative).toEqual([]);
    // Class-less hour counts.
    const rawHours = await k
      .selectFrom('rois')
      .where('deleted_at', 'is', null)
      .select((eb) => ['ipp_id', hourExpr.as('hour'), eb.lit(0).as('class_key'), eb.fn.countAll().as('n')])
      .groupBy(['ipp_id', hourExpr])
      .execute();
    const hours = await k
      .selectFrom('roi_count_hour')
      .select(['ipp_id', 'hour', (eb) => eb.lit(0).as('class_key'), 'n'])
      .where('n', '<>', 0)
      .execute();
    expect(norm(hours)).toEqual(norm(rawHours as never));
    // Day rollups: days start at UTC+8.
    const offset = 8 * HOUR;
    const dayExpr = sql<number>`((roi_time + ${sql.lit(offset)}) / ${sql.lit(24 * HOUR)}) * ${sql.lit(24 * HOUR)} - ${sql.lit(offset)}`;
    const rawDays = await k
      .selectFrom('rois')
      .where('deleted_at', 'is', null)
      .select((eb) => [
        'ipp_id',
        dayExpr.as('hour'),
        eb.fn.coalesce('class_id', eb.lit(0)).as('class_key'),
        eb.fn.countAll().as('n'),
      ])
      .groupBy(['ipp_id', dayExpr, (eb) => eb.fn.coalesce('class_id', eb.lit(0))])
      .execute();
    const days = await k
      .selectFrom('roi_rollup_day')
      .select(['ipp_id', 'day as hour', 'class_key', 'n'])
      .where('n', '<>', 0)
      .execute();
    expect(norm(days)).toEqual(norm(rawDays as never));
    await expectSizeRollupsMatchRows();
  }

  it('stay equal to a GROUP BY over the ROIs after random ingest, reclassify, move and delete sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        fc.nat(80),
        fc.nat(80),
        async (ops, fromHoursAgo, lengthHours) => {
          for (const op of ops) await apply(op);
          await expectRollupsMatchRows();
          // Class totals of any hour range from day + edge-hour rollups equal those from the hour rollups alone.
          const from = Math.floor(env.clock.now / HOUR) * HOUR - fromHoursAgo * HOUR;
          const to = from + (lengthHours + 1) * HOUR;
          const mixed = await classCountsBetween(env.db.kysely, stations, from, to, 8);
          const hourly = await classCounts(env.db.kysely, stations, { start: from, end: to, width: to - from, grain: 'hour' });
          expect(mixed).toEqual(hourly);
        },
      ),
      { numRuns: 12 },
    );
    // Every kind of operation really changed rows along the way.
    for (const kind of ['ingest', 'reclassify', 'move', 'remove', 'remeasure', 'recycle'] as const) {
      expect(applied[kind], kind).toBeGreaterThan(0);
    }
  });

  // On PostgreSQL the operations really overlap (a pool of connections, as with several requests or server processes):
  // two changes of the same ROI must take turns, or both apply their deltas to the same old state.
  it('stay equal to a GROUP BY when the operations run concurrently, several on the same ROIs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 2, maxLength: 16 }), async (ops) => {
        await Promise.all(ops.map((op) => apply(op)));
        await expectRollupsMatchRows();
      }),
      { numRuns: 15 },
    );
  });

  it('rebuilds the day rollups from the hour rollups when the statistics offset changes', async () => {
    const k = env.db.kysely;
    const snapshot = async () => [
      ...(await k.selectFrom('roi_rollup_day').selectAll().where('n', '<>', 0).execute())
        .map((r) => `${r.ipp_id}/${Number(r.day)}/${r.class_key}=${r.n}`)
        .sort(),
      ...(await k.selectFrom('roi_size_day').selectAll().where('n', '<>', 0).execute())
        .map((r) => `${r.ipp_id}/${Number(r.day)}/${r.class_key}/${r.size_class}=${r.n}:${Number(r.bv_px3).toPrecision(9)}`)
        .sort(),
    ];
    const incremental = await snapshot();
    expect(incremental.length).toBeGreaterThan(0);
    expect(await ensureDayRollups(k, env.db.dialect, 8)).toBe(false);
    expect(await ensureDayRollups(k, env.db.dialect, -5)).toBe(true);
    expect(await snapshot()).not.toEqual(incremental);
    expect(await ensureDayRollups(k, env.db.dialect, 8)).toBe(true);
    expect(await snapshot()).toEqual(incremental);
  });
});
