import fc from 'fast-check';
import { CATEGORY, type LastAction } from '@ipp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { countsSnapshot } from './helpers/counts.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

const HOUR = 3_600_000;

/** A bulk action as the workspace sends it, on the ROIs picked by index. */
interface Step {
  type: string;
  category: number;
  pick: number[];
  cls: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  type: fc.constantFrom('81', '82', '83', '61', '62', '31', '41', '54', '2', '113', '13', '23'),
  category: fc.constant(0),
  pick: fc.uniqueArray(fc.nat(11), { minLength: 1, maxLength: 12 }),
  cls: fc.integer({ min: 1, max: 4 }),
});
const CATEGORY_OF: Record<string, number> = {
  '62': CATEGORY.FAVORITE,
  '2': CATEGORY.ALL,
  '113': CATEGORY.RECYCLE,
};

/**
 * Issue 25: "undo restores every count exactly". Random bulk actions (each possibly after another that stays done),
 * each undone at once: every ROI row, folder membership and count, and every rollup, compared raw before and after.
 */
describe.each(dialects)('undo restores every count on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let rois: number[];
  let classes: number[];
  let serial = 0;

  beforeAll(async () => {
    env = await buildTestApp(dialect, { config: { STATS_UTC_OFFSET: 8 } });
    w = await buildWorld(env);
    const keys = [
      (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'P1')).key,
      (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'P2')).key,
    ];
    rois = [];
    for (let i = 0; i < 12; i++) {
      const res = body(
        await uploadRoi(
          env,
          keys[i % 2]!,
          { captured_at: env.clock.now - (i * 5 + 1) * HOUR, label_index: i % 4, size_px: 1000 + i * 300 },
          await pngOf(500 + i),
        ),
      );
      rois.push((res.data as { roi_id: number }).roi_id);
    }
    classes = (
      await env.db.kysely
        .selectFrom('classes')
        .select('id')
        .where('label_index', 'in', [1, 2, 3, 4])
        .orderBy('label_index')
        .execute()
    ).map((c) => c.id);
  });
  afterAll(() => env.close());

  const send = async (step: Step) => {
    const payload = {
      type: step.type,
      category_id: CATEGORY_OF[step.type] ?? CATEGORY.SITE,
      roi_ids: step.pick.map((i) => rois[i]!),
      ...(['82', '23'].includes(step.type) ? { target_id: classes[step.cls - 1] } : {}),
      ...(step.type === '54' ? { title: `${String(100 + (++serial % 800))}Prop${serial}` } : {}),
    };
    return body(await call(env, w.tokens.ownAdmin, 'POST', '/api/roi/save-move', payload));
  };
  const last = async () => body(await call(env, w.tokens.ownAdmin, 'GET', '/api/roi/last-action')).data as LastAction | null;

  it('an action and its undo leave every count as it was', async () => {
    let undone = 0;
    await fc.assert(
      fc.asyncProperty(fc.option(stepArb, { nil: undefined }), stepArb, async (prep, step) => {
        if (prep) await send(prep);
        const before = await countsSnapshot(env);
        const lastBefore = await last();
        const res = await send(step);
        if (res.code !== 1000) {
          // Refused (the matrix, AI labels for 13/23, recycled ROIs): nothing changed, the last action is still the last.
          expect(await countsSnapshot(env)).toEqual(before);
          expect(await last()).toEqual(lastBefore);
          return;
        }
        const action = await last();
        if ((res.data as { affected: number }).affected === 0 && action?.bulk_id === lastBefore?.bulk_id) {
          expect(await countsSnapshot(env)).toEqual(before);
          return;
        }
        expect(action).not.toBeNull();
        const undoRes = body(await call(env, w.tokens.ownAdmin, 'POST', '/api/roi/undo', { bulk_id: action!.bulk_id }));
        expect(undoRes.code).toBe(1000);
        expect((undoRes.data as { skipped: number }).skipped).toBe(0);
        expect(await countsSnapshot(env)).toEqual(before);
        undone++;
      }),
      { numRuns: 40, seed: 25 },
    );
    expect(undone).toBeGreaterThan(10);
  }, 240_000);
});
