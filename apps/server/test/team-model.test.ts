import { describe, expect, it } from 'vitest';
import { autoAcceptThresholds, outOfFold } from '../src/modules/recognition/calibration.ts';
import { trainClassifier } from '../src/modules/recognition/classifier/train-forest.ts';
import { mulberry32 } from '../src/lib/random.ts';
import { LinearHead, softmax, trainLinear } from '../src/modules/recognition/linear-head.ts';
import {
  calibrate,
  crossValidateTeamModel,
  fitTemperature,
  loadPredictor,
  TeamModel,
  trainTeamModel,
  CEILING,
} from '../src/modules/recognition/team-model.ts';

/** Three Gaussian classes in 6 dimensions (means 2.5 apart on their own axis), seeded. */
function blobs(n: number, seed: number) {
  const random = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = i % 3;
    x.push(Array.from({ length: 6 }, (_, d) => (d === c ? 2.5 : 0) + gauss()));
    y.push(10 + c);
  }
  return { x, y };
}

describe('temperature calibration', () => {
  it('recovers a known temperature: an overconfident model made 3× too sharp is fitted T ≈ 3', () => {
    const random = mulberry32(7);
    const proba: Float64Array[] = [];
    const truth: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const logits = Array.from({ length: 5 }, () => 2 * (random() - 0.5) * 3);
      const p = softmax(logits);
      // The true class is drawn from p; the model reports p sharpened to the power 3 (temperature 1/3).
      let u = random();
      let t = 0;
      while (t < 4 && u > p[t]!) u -= p[t++]!;
      truth.push(t);
      proba.push(softmax(logits.map((v) => v * 3)));
    }
    expect(fitTemperature(proba, truth)).toBeCloseTo(3, 0);
    // Calibrated, the mean confidence of the top class matches its accuracy within two points.
    const T = fitTemperature(proba, truth);
    let conf = 0;
    let right = 0;
    proba.forEach((p, i) => {
      const q = calibrate(Float64Array.from(p), T);
      const best = q.indexOf(Math.max(...q));
      conf += q[best]!;
      right += best === truth[i] ? 1 : 0;
    });
    expect(Math.abs(conf - right) / proba.length).toBeLessThan(0.02);
  });

  it('a model that separated its folds perfectly is not allowed to claim certainty', () => {
    const proba = Array.from({ length: 50 }, (_, i) => Float64Array.from(i % 2 ? [0, 1] : [1, 0]));
    const truth = proba.map((_, i) => i % 2);
    const T = fitTemperature(proba, truth);
    expect(T).toBeGreaterThanOrEqual(0.25);
    expect(calibrate(Float64Array.from([1, 0]), T)[0]).toBeLessThan(1);
  });
});

describe('linear head and team model', () => {
  it('the softmax regression learns separable classes and survives JSON', () => {
    const train = blobs(300, 1);
    const test = blobs(300, 2);
    const head = trainLinear(train, { seed: 3 });
    const right = test.x.filter((x, i) => head.predict(x, 1)[0]!.class_id === test.y[i]).length;
    expect(right / test.x.length).toBeGreaterThan(0.85);
    const again = LinearHead.fromJSON(JSON.parse(JSON.stringify(head.toJSON())));
    expect(again.predict(test.x[0]!, 3).map((p) => p.class_id)).toEqual(head.predict(test.x[0]!, 3).map((p) => p.class_id));
    expect(() => LinearHead.fromJSON({ ...head.toJSON(), bias: [1] })).toThrow(/malformed/);
  });

  it('logit adjustment answers as if classes were equally common: a rare class keeps its recall (issue 38)', () => {
    // Class 10 twenty times as common as 12 in training; the test set is balanced.
    const all = blobs(3000, 5);
    const keep = all.y.map((c, i) => c !== 12 || i % 20 === 2);
    const train = { x: all.x.filter((_, i) => keep[i]), y: all.y.filter((_, i) => keep[i]) };
    const test = blobs(600, 6);
    const recall = (head: LinearHead, c: number) => {
      const ids = test.y.flatMap((y, i) => (y === c ? [i] : []));
      return ids.filter((i) => head.predict(test.x[i]!, 1)[0]!.class_id === c).length / ids.length;
    };
    const natural = trainLinear(train, { seed: 3 });
    const balanced = trainLinear(train, { seed: 3, balanced: true });
    const mean = (head: LinearHead) => (recall(head, 10) + recall(head, 11) + recall(head, 12)) / 3;
    expect(recall(balanced, 12)).toBeGreaterThan(recall(natural, 12) + 0.1);
    expect(mean(balanced)).toBeGreaterThan(mean(natural));
  });

  it('averages forest and regression, keeps its temperature through JSON, and is reproducible by seed', () => {
    const train = blobs(240, 4);
    const a = trainTeamModel(train, { seed: 5 }).withTemperature(1.7);
    const b = trainTeamModel(train, { seed: 5 }).withTemperature(1.7);
    const x = blobs(30, 6).x;
    expect(a.predictMany(x, 3)).toEqual(b.predictMany(x, 3));
    const p = a.proba(x[0]!);
    expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    const loaded = loadPredictor(JSON.parse(JSON.stringify(a.toJSON())));
    expect(loaded).toBeInstanceOf(TeamModel);
    expect((loaded as TeamModel).temperature).toBe(1.7);
    expect(loaded.predictMany(x, 3)).toEqual(a.predictMany(x, 3));
    // A forest stored by the first releases still loads and predicts.
    const forest = trainClassifier(train, { seed: 5, trees: 20 });
    expect(loadPredictor(JSON.parse(JSON.stringify(forest.toJSON()))).predict(x[0]!, 1)).toEqual(forest.predict(x[0]!, 1));
    expect(() => loadPredictor({ ...a.toJSON(), temperature: -1 })).toThrow(/temperature/);
  });

  it('cross-validation gives every sample out-of-fold probabilities over all classes', () => {
    const set = blobs(90, 8);
    const cv = crossValidateTeamModel(set, 3, { seed: 1 });
    expect(cv.probaClasses).toEqual([10, 11, 12]);
    expect(cv.proba).toHaveLength(90);
    for (const p of cv.proba) expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
    expect(cv.accuracy).toBeGreaterThan(0.8);
  });
});

describe('auto-accept thresholds', () => {
  it('picks per class the lowest confidence whose accepted labels reach the target precision', () => {
    // Class 1: ten predictions, confidences 0.95 … 0.50; the two least confident wrong.
    // Class 2: six predictions, every other one wrong: 50% at best, never 90%.
    // Class 3: three right predictions: too few to promise anything.
    const oof = {
      predicted: [...Array(10).fill(1), ...Array(6).fill(2), 3, 3, 3],
      confidence: [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.99, 0.98, 0.97],
      right: [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1],
    };
    const at90 = autoAcceptThresholds(oof, [1, 2, 3, 4], 0.9);
    // 8 right of the top 8 (≥ 0.60) is 100%; adding 0.55 gives 8/9 = 88.9% < 90%: the threshold is 0.60.
    expect(at90[0]).toEqual({ class_id: 1, threshold: 0.6, precision: 1, coverage: 0.8, predicted: 10 });
    expect(at90[1]).toMatchObject({ class_id: 2, threshold: null, precision: null, coverage: 0 });
    expect(at90[2]).toMatchObject({ class_id: 3, threshold: null, predicted: 3 });
    expect(at90[3]).toEqual({ class_id: 4, threshold: null, precision: null, coverage: 0, predicted: 0 });
    // A lower target accepts more: at 80% the 0.50 cut gives 8/10.
    expect(autoAcceptThresholds(oof, [1], 0.8)[0]).toMatchObject({ threshold: 0.5, precision: 0.8, coverage: 1 });
  });

  it('never sets a threshold above the confidences the model gives (issue 38: 0.9999 stored as 1.000)', () => {
    // A report from before issue 38 rounded 0.99988 up to 1: every label right, yet a threshold of 1 reviewed them all.
    const oof = { predicted: [7, 7, 7, 7, 7, 7], confidence: [1, 1, 1, 1, 1, 1], right: [1, 1, 1, 1, 1, 1] };
    const [auto] = autoAcceptThresholds(oof, [7], 0.95);
    expect(auto!.threshold).toBe(CEILING);
    expect(auto!.coverage).toBe(1);
    // Out-of-fold confidences are now rounded down, so a threshold never exceeds the label it came from.
    const p = Float64Array.from([0.99988, 0.00012]);
    const { oof: fresh } = outOfFold([p], [7, 8], [7], [[7]], 1);
    expect(fresh.confidence[0]).toBeLessThanOrEqual(0.99988);
    expect(fresh.confidence[0]).toBe(0.999);
  });
});
