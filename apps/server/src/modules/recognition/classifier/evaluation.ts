/**
 * Scoring a classifier's predictions against labels, whatever the model (the forest, the team model): accuracy,
 * balanced accuracy, per-class precision and recall, the confusion matrix; and the stratified fold assignment that
 * cross-validations share.
 */
import { mulberry32 } from '../../../lib/random.ts';
import type { Classifier } from './forest.ts';
import type { TrainingSet } from './train-forest.ts';

export interface ClassMetrics {
  class_id: number;
  precision: number;
  recall: number;
  support: number;
}

export interface Evaluation {
  /** Share of samples whose predicted class is one of their accepted classes. */
  accuracy: number;
  /** Mean recall over the classes with samples. */
  balancedAccuracy: number;
  /** Row and column order of `confusion`: every class labelled or predicted, ascending. */
  classes: number[];
  perClass: ClassMetrics[];
  /** confusion[true][predicted] counts; a prediction among a sample's accepted classes counts as its true class. */
  confusion: number[][];
  n: number;
  /** Expected calibration error of the top-1 confidence (15 equal-width bins), where the model gave confidences. */
  ece?: number;
}

/** A training set whose samples may each accept several classes as correct. */
export type LabelledSet = TrainingSet & { accepted?: number[][] };

/** Scores predictions (top-1 class per sample) against labels (y[i] and any class of accepted[i]); see Evaluation. */
export function scorePredictions(y: number[], predicted: number[], accepted?: number[][]): Evaluation {
  const n = y.length;
  const truth = y.map((label, i) => (predicted[i] === label || accepted?.[i]?.includes(predicted[i]!) ? predicted[i]! : label));
  const classes = [...new Set([...truth, ...predicted])].sort((a, b) => a - b);
  const at = new Map(classes.map((c, i) => [c, i]));
  const confusion = classes.map(() => new Array<number>(classes.length).fill(0));
  let correct = 0;
  for (let i = 0; i < n; i++) {
    confusion[at.get(truth[i]!)!]![at.get(predicted[i]!)!]!++;
    if (truth[i] === predicted[i]) correct++;
  }
  const perClass = classes.map((c, i) => {
    const support = confusion[i]!.reduce((s, v) => s + v, 0);
    const predictedAs = confusion.reduce((s, row) => s + row[i]!, 0);
    const hit = confusion[i]![i]!;
    return { class_id: c, precision: predictedAs ? hit / predictedAs : 0, recall: support ? hit / support : 0, support };
  });
  const withSupport = perClass.filter((m) => m.support > 0);
  return {
    accuracy: n ? correct / n : 0,
    balancedAccuracy: withSupport.length ? withSupport.reduce((s, m) => s + m.recall, 0) / withSupport.length : 0,
    classes,
    perClass,
    confusion,
    n,
  };
}

export function evaluate(model: Pick<Classifier, 'predictMany'>, set: LabelledSet): Evaluation {
  const top = model.predictMany(set.x, 1).map((p) => p[0]);
  const predicted = top.map((p) => p?.class_id ?? Number.NaN);
  const ev = scorePredictions(set.y, predicted, set.accepted);
  const right = predicted.map((c, i) => c === set.y[i] || (set.accepted?.[i]?.includes(c) ?? false));
  return {
    ...ev,
    ece: expectedCalibrationError(
      top.map((p) => p?.p ?? 0),
      right,
    ),
  };
}

/**
 * Expected calibration error (Guo et al. 2017): the top-1 confidences in 15 equal-width bins, the gap between each
 * bin's mean confidence and its accuracy, weighted by the bin's share of the samples. 0 is perfectly calibrated.
 */
export function expectedCalibrationError(confidence: readonly number[], right: readonly boolean[], bins = 15): number {
  const n = confidence.length;
  if (n === 0) return 0;
  const sumConf = new Float64Array(bins);
  const sumRight = new Float64Array(bins);
  const count = new Float64Array(bins);
  confidence.forEach((c, i) => {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(c * bins)));
    sumConf[b]! += c;
    sumRight[b]! += right[i] ? 1 : 0;
    count[b]!++;
  });
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]) ece += Math.abs(sumConf[b]! - sumRight[b]!) / n;
  return ece;
}

/**
 * Stratified k-fold assignment: each class's samples, shuffled, are dealt to the folds in turn, continuing where
 * the previous class stopped so that fold sizes differ by at most one.
 */
export function stratifiedFolds(y: number[], k: number, seed: number): number[] {
  const random = mulberry32(seed ^ 0x5bd1e995);
  const byClass = new Map<number, number[]>();
  y.forEach((c, i) => {
    const list = byClass.get(c);
    if (list) list.push(i);
    else byClass.set(c, [i]);
  });
  const fold = new Array<number>(y.length).fill(0);
  let next = 0;
  for (const c of [...byClass.keys()].sort((a, b) => a - b)) {
    const members = byClass.get(c)!;
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [members[i], members[j]] = [members[j]!, members[i]!];
    }
    for (const i of members) {
      fold[i] = next;
      next = (next + 1) % k;
    }
  }
  return fold;
}
