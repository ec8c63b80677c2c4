import { describe, expect, it } from 'vitest';
import { adjustCounts, correctedCounts, nnls } from '../src/modules/recognition/corrected-counts.ts';

const M = [
  [0.8, 0.15, 0.05],
  [0.1, 0.85, 0.05],
  [0.2, 0.1, 0.7],
];
const truth = [500, 300, 200];
/** What a model with confusion M reports for those true counts: q_p = Σ_t n_t M[t][p]. */
const expected = [0, 1, 2].map((p) => truth.reduce((s, n, t) => s + n * M[t]![p]!, 0));

describe('corrected counts (adjusted classify-and-count)', () => {
  it('recovers the true counts from the counts a known confusion produces', () => {
    // Raw counts are biased: 470, 350, 180 for a truth of 500, 300, 200.
    expect(expected.map((v) => Math.round(v))).toEqual([470, 350, 180]);
    const n = adjustCounts(
      M.map((r) => r.map((v) => v * 1000)),
      expected,
    );
    n.forEach((v, i) => expect(v).toBeCloseTo(truth[i]!, 4));
  });

  it('gives an interval that holds the truth, narrower with more cross-validation evidence', () => {
    const observed = new Map([10, 11, 12].map((c, i) => [c, Math.round(expected[i]!)]));
    const few = correctedCounts({ classes: [10, 11, 12], counts: M.map((r) => r.map((v) => v * 40)) }, observed);
    const many = correctedCounts({ classes: [10, 11, 12], counts: M.map((r) => r.map((v) => v * 4000)) }, observed);
    many.forEach((c, i) => {
      expect(c.raw).toBe(Math.round(expected[i]!));
      expect(Math.abs(c.corrected - truth[i]!)).toBeLessThan(2);
      expect(c.low).toBeLessThanOrEqual(truth[i]!);
      expect(c.high).toBeGreaterThanOrEqual(truth[i]!);
      expect(c.high - c.low).toBeLessThan(few[i]!.high - few[i]!.low);
    });
    // The corrected counts keep the total the model labelled.
    expect(many.reduce((s, c) => s + c.corrected, 0)).toBeCloseTo(1000, 6);
  });

  it('a station of a million labelled ROIs is corrected as well (the bootstrap draws do not grow with the count)', () => {
    const observed = new Map([10, 11, 12].map((c, i) => [c, Math.round(expected[i]! * 1000)]));
    const out = correctedCounts({ classes: [10, 11, 12], counts: M.map((r) => r.map((v) => v * 4000)) }, observed);
    out.forEach((c, i) => {
      expect(Math.abs(c.corrected - truth[i]! * 1000) / (truth[i]! * 1000)).toBeLessThan(0.001);
      expect(c.low).toBeLessThanOrEqual(truth[i]! * 1000);
      expect(c.high).toBeGreaterThanOrEqual(truth[i]! * 1000);
    });
  });

  it('a perfect model changes nothing; a class the model does not know is passed through', () => {
    const identity = [
      [50, 0],
      [0, 50],
    ];
    const out = correctedCounts(
      { classes: [1, 2], counts: identity },
      new Map([
        [1, 30],
        [2, 70],
        [9, 4],
      ]),
    );
    expect(out.map((c) => [c.class_id, Math.round(c.corrected * 1e6) / 1e6])).toEqual([
      [1, 30],
      [2, 70],
      [9, 4],
    ]);
    expect(out.find((c) => c.class_id === 9)).toMatchObject({ raw: 4, low: 4, high: 4 });
  });

  it('never estimates a negative count (non-negative least squares)', () => {
    // Observed counts impossible under the model (more class-1 predictions than any truth could give).
    const x = nnls(
      [
        [0.9, 0.5],
        [0.1, 0.5],
      ],
      [10, -5],
    );
    expect(x.every((v) => v >= 0)).toBe(true);
    const none = correctedCounts(
      {
        classes: [1, 2],
        counts: [
          [8, 2],
          [3, 7],
        ],
      },
      new Map(),
    );
    expect(none.every((c) => c.corrected === 0 && c.low === 0 && c.high === 0)).toBe(true);
  });
});
