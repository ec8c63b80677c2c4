import { crossValidate, trainClassifier, type TrainingSet } from './classifier.ts';

export interface TrainInput {
  x: number[][];
  y: number[];
  accepted: number[][];
  seed: number;
}
export interface TrainOutput {
  model: unknown;
  accuracy: number | null;
  balancedAccuracy: number | null;
  classes: number;
  n: number;
}

/**
 * Cross-validates (k = 5, fewer when a class is that small) and trains the final forest on everything; progress
 * runs 0 → 1 over the folds and the final fit. Pure and synchronous: it runs in a worker thread (train-job.ts).
 */
export function trainAndEvaluate(input: TrainInput, onProgress: (fraction: number) => void): TrainOutput {
  const set: TrainingSet & { accepted: number[][] } = { x: input.x, y: input.y, accepted: input.accepted };
  const counts = new Map<number, number>();
  for (const y of input.y) counts.set(y, (counts.get(y) ?? 0) + 1);
  const k = Math.min(5, ...counts.values());
  let accuracy: number | null = null;
  let balancedAccuracy: number | null = null;
  const steps = (k >= 2 ? k : 0) + 1;
  if (k >= 2) {
    const evaluation = crossValidate(set, k, { seed: input.seed, onFold: (i) => onProgress((i + 1) / steps) });
    accuracy = evaluation.accuracy;
    balancedAccuracy = evaluation.balancedAccuracy;
  }
  const model = trainClassifier(set, { seed: input.seed });
  onProgress(1);
  return { model: model.toJSON(), accuracy, balancedAccuracy, classes: counts.size, n: input.y.length };
}
