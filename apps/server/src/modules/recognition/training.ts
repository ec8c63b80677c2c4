import type { Evaluation } from './classifier/evaluation.ts';
import type { TrainingSet } from './classifier/train-forest.ts';
import { outOfFold, type OutOfFold } from './calibration.ts';
import { crossValidateTeamModel, fitTemperature, trainTeamModel } from './team-model.ts';

export interface TrainInput {
  x: number[][];
  y: number[];
  accepted: number[][];
  seed: number;
}
/** What ai_models.report keeps (ids only; names are read when the report is asked for). */
export interface ModelReportData {
  folds: number;
  n: number;
  accuracy: number;
  balanced_accuracy: number;
  /** Calibration temperature fitted on the cross-validation; absent for forests of the first releases. */
  temperature?: number;
  /** The whole cross-validated confusion matrix (rows true, columns predicted): corrected counts rest on it. */
  matrix?: { classes: number[]; counts: number[][] };
  /** Every cross-validated prediction's class, calibrated confidence and correctness: auto-accept thresholds. */
  oof?: OutOfFold;
  classes: { class_id: number; support: number; precision: number; recall: number }[];
  confusions: { true_class_id: number; predicted_class_id: number; count: number }[];
}

/** Confusions kept in a report: the most frequent off-diagonal cells. */
export const REPORT_CONFUSIONS = 20;

export interface TrainOutput {
  model: unknown;
  report: ModelReportData | null;
  accuracy: number | null;
  balancedAccuracy: number | null;
  classes: number;
  n: number;
}

/**
 * Cross-validates (k = 5, fewer when a class is that small), fits the calibration temperature on the out-of-fold
 * probabilities and trains the final team model (team-model.ts) on everything; progress runs 0 → 1 over the folds
 * and the final fit. Pure and synchronous: it runs in a worker thread (train-job.ts).
 */
export function trainAndEvaluate(input: TrainInput, onProgress: (fraction: number) => void): TrainOutput {
  const set: TrainingSet & { accepted: number[][] } = { x: input.x, y: input.y, accepted: input.accepted };
  const counts = new Map<number, number>();
  for (const y of input.y) counts.set(y, (counts.get(y) ?? 0) + 1);
  const k = Math.min(5, ...counts.values());
  let accuracy: number | null = null;
  let balancedAccuracy: number | null = null;
  let report: ModelReportData | null = null;
  const steps = (k >= 2 ? k : 0) + 1;
  let temperature = 1;
  let memberWeight = 0;
  if (k >= 2) {
    const evaluation = crossValidateTeamModel(set, k, { seed: input.seed, onFold: (i) => onProgress((i + 1) / steps) });
    accuracy = evaluation.accuracy;
    balancedAccuracy = evaluation.balancedAccuracy;
    const truth = input.y.map((c) => evaluation.probaClasses.indexOf(c));
    temperature = fitTemperature(evaluation.proba, truth);
    memberWeight = evaluation.memberWeight;
    const { oof, counts } = outOfFold(evaluation.proba, evaluation.probaClasses, input.y, input.accepted, temperature);
    report = {
      ...reportOf(evaluation, k),
      temperature,
      matrix: { classes: evaluation.probaClasses, counts },
      oof,
    };
  }
  const model = trainTeamModel(set, { seed: input.seed, memberWeight }).withTemperature(temperature);
  onProgress(1);
  return { model: model.toJSON(), report, accuracy, balancedAccuracy, classes: counts.size, n: input.y.length };
}

export function reportOf(evaluation: Evaluation, folds: number): ModelReportData {
  const confusions: ModelReportData['confusions'] = [];
  evaluation.confusion.forEach((row, t) =>
    row.forEach((count, p) => {
      if (t !== p && count > 0)
        confusions.push({ true_class_id: evaluation.classes[t]!, predicted_class_id: evaluation.classes[p]!, count });
    }),
  );
  confusions.sort(
    (a, b) => b.count - a.count || a.true_class_id - b.true_class_id || a.predicted_class_id - b.predicted_class_id,
  );
  return {
    folds,
    n: evaluation.n,
    accuracy: evaluation.accuracy,
    balanced_accuracy: evaluation.balancedAccuracy,
    classes: evaluation.perClass.map((c) => ({
      class_id: c.class_id,
      support: c.support,
      precision: c.precision,
      recall: c.recall,
    })),
    confusions: confusions.slice(0, REPORT_CONFUSIONS),
  };
}
