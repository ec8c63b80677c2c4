import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld } from './helpers/actors.ts';
import { ensureDayRollups } from '../src/modules/stats/rollups.repository.ts';
import { classCounts, classCountsBetween } from '../src/modules/stats/stats.repository.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp } from './helpers/device.ts';

const HOUR = 3_600_000;

type Op =
  | { kind: 'ingest'; station: number; label: number; hourOffset: number; minute: number }
  | { kind: 'reclassify'; pick: number; label: number }
  | { kind: 'move'; pick: number; station: number }
  | { kind: 'remove'; pick: number };

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

  const applied: Record<Op['kind'], number> = { ingest: 0, reclassify: 0, move: 0, remove: 0 };

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
    }
  }

  async function expectRollupsMatchRows() {
    const k = env.db.kysely;
    const hourExpr = sql<number>`(roi_time / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`;
    const raw = await k
      .selectFrom('rois')
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
    for (const kind of ['ingest', 'reclassify', 'move', 'remove'] as const) expect(applied[kind], kind).toBeGreaterThan(0);
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
    const snapshot = async () =>
      (await k.selectFrom('roi_rollup_day').selectAll().where('n', '<>', 0).execute())
        .map((r) => `${r.ipp_id}/${Number(r.day)}/${r.class_key}=${r.n}`)
        .sort();
    const incremental = await snapshot();
    expect(incremental.length).toBeGreaterThan(0);
    expect(await ensureDayRollups(k, env.db.dialect, 8)).toBe(false);
    expect(await ensureDayRollups(k, env.db.dialect, -5)).toBe(true);
    expect(await snapshot()).not.toEqual(incremental);
    expect(await ensureDayRollups(k, env.db.dialect, 8)).toBe(true);
    expect(await snapshot()).toEqual(incremental);
  });
});
