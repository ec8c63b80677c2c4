import { describe, expect, it } from 'vitest';
import { adjustCounts, correctedCounts, emCounts, emPriors, nnls } from '../src/modules/recognition/corrected-counts.ts';
import { mulberry32 } from '../src/lib/random.ts';

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

describe('EM prior adaptation (Saerens et al. 2002)', () => {
  /** A batch from three overlapping 1-D Gaussian classes (means 0, 1.5, 3), with exact posteriors under equal priors. */
  function batch(mix: number[], n: number, seed: number) {
    const random = mulberry32(seed);
    const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
    const posteriors: Float64Array[] = [];
    const truth = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const u = random();
      const c = u < mix[0]! ? 0 : u < mix[0]! + mix[1]! ? 1 : 2;
      truth[c]!++;
      const x = c * 1.5 + gauss();
      const like = [0, 1.5, 3].map((m) => Math.exp(-0.5 * (x - m) ** 2));
      const s = like.reduce((a, v) => a + v, 0);
      posteriors.push(Float64Array.from(like.map((v) => v / s)));
    }
    return { posteriors, truth };
  }

  it('recovers a batch mix far from the equal one the model assumes, where raw argmax counts do not', () => {
    const { posteriors, truth } = batch([0.8, 0.15, 0.05], 4000, 3);
    const prior = emPriors(posteriors);
    expect(prior[0]).toBeCloseTo(truth[0]! / 4000, 1);
    expect(prior[2]).toBeCloseTo(truth[2]! / 4000, 1);
    const argmaxCount = posteriors.filter((p) => p[2]! > p[0]! && p[2]! > p[1]!).length;
    // Raw counting gives the rare class the overflow of the others; EM does not.
    expect(Math.abs(prior[2]! * 4000 - truth[2]!)).toBeLessThan(Math.abs(argmaxCount - truth[2]!) / 2);
  });

  it('gives 95% intervals that hold the true counts in most batches', () => {
    let covered = 0;
    let cells = 0;
    for (let b = 0; b < 20; b++) {
      const { posteriors, truth } = batch([0.6, 0.3, 0.1], 300, 100 + b);
      emCounts(posteriors, { seed: b, replicates: 100 }).forEach((c, k) => {
        expect(c.low).toBeLessThanOrEqual(c.corrected);
        expect(c.high).toBeGreaterThanOrEqual(c.corrected);
        covered += truth[k]! >= c.low && truth[k]! <= c.high ? 1 : 0;
        cells++;
      });
    }
    expect(covered / cells).toBeGreaterThanOrEqual(0.85);
  });
});

describe('the interval of adjusted classify-and-count', () => {
  it('does not let its prior swamp a class the model never got wrong (issue 38: 17 → 0–25.5)', () => {
    // A small team's model: 33 classes, class 0 was 24 of 24 right in cross-validation, the others 3 of 3.
    const k = 33;
    const counts = Array.from({ length: k }, (_, t) => Array.from({ length: k }, (_, p) => (t !== p ? 0 : t === 0 ? 24 : 3)));
    const classes = Array.from({ length: k }, (_, i) => i + 1);
    const observed = new Map(classes.map((c) => [c, c === 1 ? 17 : 10]));
    const [chaetognath] = correctedCounts({ classes, counts }, observed, { seed: 1 });
    expect(chaetognath!.corrected).toBeCloseTo(17, 0);
    expect(chaetognath!.low).toBeGreaterThan(2);
    expect(chaetognath!.high).toBeLessThan(28);
    // The prior of before (½ in every cell: 16 pretend errors beside each row's 5 right answers) made every other class
    // look as likely to be labelled a chaetognath as the chaetognaths themselves: an interval from near 0.
    const [before] = correctedCounts({ classes, counts }, observed, { seed: 1, pseudoCount: 0.5 });
    expect(before!.low).toBeLessThan(0.5);
    expect(before!.high - before!.low).toBeGreaterThan(chaetognath!.high - chaetognath!.low);
  });
});
