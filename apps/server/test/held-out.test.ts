import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scan } from '../src/cli/image-sets.ts';
import { drawHeldOut, heldOutDigest, loadHeldOut, PER_CLASS, upstreamClasses } from '../src/cli/held-out.ts';
import { expectedCalibrationError } from '../src/modules/recognition/classifier/evaluation.ts';

const SHARED = path.resolve(import.meta.dirname, '../../../../shared/data');
const SETS = ['pwssc-spc', 'pwssc-spc-more'].map((s) => path.join(SHARED, s));
const haveShared = SETS.every((d) => fs.existsSync(d));
if (!haveShared) console.error(`*** SKIPPING the held-out draw check: ${SETS.join(' and ')} not found.`);

describe('the frozen balanced held-out list (issue 38)', () => {
  const frozen = loadHeldOut();

  it('holds at most 20 images a class, each once, in every class of the shared sets', () => {
    const perClass = new Map<string, number>();
    for (const i of frozen.images) perClass.set(i.class, (perClass.get(i.class) ?? 0) + 1);
    expect(Math.max(...perClass.values())).toBeLessThanOrEqual(PER_CLASS);
    expect(perClass.size).toBe(33);
    expect(new Set(frozen.images.map((i) => i.sha256)).size).toBe(frozen.images.length);
  });

  it.skipIf(!haveShared)(
    'is what the rule draws from the shared images, and its digest names it',
    () => {
      const drawn = drawHeldOut(SETS.map((d) => ({ name: path.basename(d), images: scan(d), upstream: upstreamClasses(d) })));
      expect(drawn).toEqual(frozen);
      expect(heldOutDigest(drawn)).toBe(heldOutDigest(frozen));
    },
    120_000,
  );
});

describe('expected calibration error', () => {
  it('is 0 when confidences match the accuracy in each bin, and the gap otherwise', () => {
    // Ten at 0.8 of which 8 right: calibrated. Ten at 0.9 of which 5 right: 0.4 gap on half the samples.
    const conf = [...Array(10).fill(0.8), ...Array(10).fill(0.9)];
    const right = [...Array(8).fill(true), false, false, ...Array(5).fill(true), ...Array(5).fill(false)];
    expect(expectedCalibrationError(conf.slice(0, 10), right.slice(0, 10))).toBeCloseTo(0, 9);
    expect(expectedCalibrationError(conf, right)).toBeCloseTo(0.2, 9);
    expect(expectedCalibrationError([], [])).toBe(0);
  });
});
