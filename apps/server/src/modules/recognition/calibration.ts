import { calibrate, CEILING } from './team-model.ts';

/**
 * What a model's cross-validation says about its confidences (docs/recognition.md, "Confidence"): kept in its
 * report, so that the auto-accept thresholds can be chosen again for another target precision without training.
 */
export interface OutOfFold {
  /** Per cross-validated sample: the predicted class id, its calibrated confidence (3 decimals, rounded down), 1 if right. */
  predicted: number[];
  confidence: number[];
  right: number[];
}

export interface AutoAccept {
  class_id: number;
  /** Labels of the class at or above it are accepted by the machine; null: the target is out of reach. */
  threshold: number | null;
  /** Cross-validated precision of the labels at or above the threshold. */
  precision: number | null;
  /** Share of the class's predictions at or above the threshold (what the machine accepts). */
  coverage: number;
  /** Cross-validated predictions of the class. */
  predicted: number;
}

export const DEFAULT_TARGET_PRECISION = 0.95;

/** A calibrated model's auto-accept thresholds for a target, from its report; null for a model without them. */
export function autoAcceptOf(
  report: { oof?: OutOfFold; matrix?: { classes: number[] } } | null,
  target: number,
): AutoAccept[] | null {
  return report?.oof && report.matrix ? autoAcceptThresholds(report.oof, report.matrix.classes, target) : null;
}
/** A threshold must rest on at least this many cross-validated predictions above it. */
export const MIN_ACCEPTED = 5;

/**
 * For each class, the lowest confidence threshold whose accepted predictions (confidence ≥ threshold) reach the
 * target precision in the cross-validation, with at least MIN_ACCEPTED of them: the most labels the machine can
 * accept while keeping its promise. A class that never reaches it gets null and all its labels go to review.
 */
export function autoAcceptThresholds(oof: OutOfFold, classes: number[], target: number): AutoAccept[] {
  return classes.map((c) => {
    const rows = oof.predicted
      .map((p, i) => (p === c ? { conf: oof.confidence[i]!, right: oof.right[i]! } : null))
      .filter((r): r is { conf: number; right: number } => r !== null)
      .sort((a, b) => b.conf - a.conf);
    let best: { threshold: number; precision: number; accepted: number } | null = null;
    let right = 0;
    for (let i = 0; i < rows.length; i++) {
      right += rows[i]!.right;
      // Only cut between different confidences: equal confidences are accepted or refused together.
      if (i + 1 < rows.length && rows[i + 1]!.conf === rows[i]!.conf) continue;
      const accepted = i + 1;
      const precision = right / accepted;
      // A threshold is a confidence the model gives: never above the ceiling of its confidences (reports before
      // issue 38 rounded 0.9999 up to 1, a threshold no label could reach).
      if (accepted >= MIN_ACCEPTED && precision >= target) {
        best = { threshold: Math.min(rows[i]!.conf, CEILING), precision, accepted };
      }
    }
    return {
      class_id: c,
      threshold: best?.threshold ?? null,
      precision: best?.precision ?? null,
      coverage: best && rows.length ? best.accepted / rows.length : 0,
      predicted: rows.length,
    };
  });
}

/**
 * From a cross-validation's out-of-fold probabilities (columns `classes`), calibrated with `temperature`: each
 * sample's predicted class, confidence (3 decimals) and correctness, and the confusion counts (rows true, columns
 * predicted). An image accepted in several classes counts on the diagonal when the model named any of them.
 */
export function outOfFold(
  proba: readonly Float64Array[],
  classes: number[],
  y: readonly number[],
  accepted: readonly number[][],
  temperature: number,
): { oof: OutOfFold; counts: number[][] } {
  const oof: OutOfFold = { predicted: [], confidence: [], right: [] };
  const counts = classes.map(() => classes.map(() => 0));
  proba.forEach((p, i) => {
    const q = calibrate(Float64Array.from(p), temperature);
    let best = 0;
    for (let j = 1; j < q.length; j++) if (q[j]! > q[best]!) best = j;
    const right = accepted[i]!.includes(classes[best]!) ? 1 : 0;
    oof.predicted.push(classes[best]!);
    // Rounded down: a threshold chosen among these is never above the confidence it came from.
    oof.confidence.push(Math.floor(q[best]! * 1000) / 1000);
    oof.right.push(right);
    const truth = classes.indexOf(y[i]!);
    counts[truth]![right ? truth : best]!++;
  });
  return { oof, counts };
}
