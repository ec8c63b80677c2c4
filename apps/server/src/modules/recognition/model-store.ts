import type { Db } from '../../db/database.ts';
import { loadPredictor, type Predictor } from './team-model.ts';
import { autoAcceptOf, DEFAULT_TARGET_PRECISION } from './calibration.ts';
import { labelledClasses } from '../classes/classes.repository.ts';
import * as models from './models.repository.ts';
import type { ModelReportData } from './training.ts';
import { VECTOR_VERSION } from './vector.ts';

/** Default confidence threshold (vote share) below which an AI label waits in the review queue. */
export const DEFAULT_THRESHOLD = 0.4;
const TTL_MS = 10_000;

/**
 * Whether a model trained on vectors of this version can classify today's vectors: the current version, or the
 * forests of the first releases (version 1: the 206 measured features, which lead every later vector). A model of
 * another version learnt from another network's outputs; it labels nothing until the team trains again.
 */
export function usableVersion(version: number): boolean {
  return version === VECTOR_VERSION || version === 1;
}

export interface ActiveModel {
  id: number;
  version: number;
  classifier: Predictor;
  /** Class id → its threshold (0 = the team default, -1 = the auto-accept target precision). */
  thresholds: Map<number, number>;
  /**
   * A calibrated model's auto-accept threshold per class for the team's target precision (null: never reached,
   * every label of the class is reviewed); null for the forests of the first releases (the team default applies).
   */
  autoAccept: Map<number, number | null> | null;
  /** Class id → label index (the AI label an ROI carries, spec §3). */
  labelIndex: Map<number, number>;
}

/**
 * The active model of each team, parsed once and kept; the active id and thresholds are re-read at most every
 * 10 s, so several server processes on one PostgreSQL follow an activation within that time.
 */
export class ModelStore {
  private readonly parsed = new Map<number, Predictor>();
  private readonly active = new Map<number, { at: number; model: ActiveModel | null }>();

  constructor(private readonly db: Db) {}

  async activeFor(groupId: number): Promise<ActiveModel | null> {
    const cached = this.active.get(groupId);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.model;
    const id = await models.activeModelId(this.db.kysely, groupId);
    const model = id === null ? null : await this.load(id, groupId);
    this.active.set(groupId, { at: Date.now(), model });
    return model;
  }

  /** A model by id (a job keeps the model it started with), or null if it has no trained forest. */
  async load(id: number, groupId: number): Promise<ActiveModel | null> {
    let classifier = this.parsed.get(id);
    const row = await models.findModel(this.db.kysely, id);
    if (!row || row.status !== 'ready' || !usableVersion(row.feature_version)) return null;
    if (!classifier) {
      if (row.model === null) return null;
      classifier = loadPredictor(JSON.parse(row.model));
      this.parsed.set(id, classifier);
    }
    const thresholds = await models.thresholdsOf(this.db.kysely, groupId);
    const report = row.report === null ? null : (JSON.parse(row.report) as ModelReportData);
    const auto = autoAcceptOf(report, thresholds.get(models.TARGET_PRECISION_ROW) ?? DEFAULT_TARGET_PRECISION);
    const autoAccept = auto && new Map(auto.map((a) => [a.class_id, a.threshold]));
    return {
      id,
      version: row.version,
      classifier,
      thresholds,
      autoAccept,
      labelIndex: new Map((await labelledClasses(this.db.kysely)).map((c) => [c.id, c.label_index!])),
    };
  }

  /** Forget what is cached for a team (after an activation or a threshold change in this process). */
  invalidate(groupId: number) {
    this.active.delete(groupId);
  }
}

/**
 * The confidence below which a class's AI label waits for review: the class's own threshold if the team set one;
 * else, for a calibrated model, its auto-accept threshold (above 1, so every label is reviewed, where the target
 * precision is out of reach); else the team default, else DEFAULT_THRESHOLD.
 */
export function thresholdFor(model: Pick<ActiveModel, 'thresholds' | 'autoAccept'>, classId: number): number {
  const own = model.thresholds.get(classId);
  if (own !== undefined) return own;
  if (model.autoAccept) return model.autoAccept.get(classId) ?? 2;
  return model.thresholds.get(0) ?? DEFAULT_THRESHOLD;
}

/** The AI label a model gives one feature vector. */
export const labelWith = (model: ActiveModel, values: ArrayLike<number>) =>
  labelFromTop(model, model.classifier.predict(values, 3));

/** The AI label from a model's best classes (a batch predicts them all at once). */
export function labelFromTop(model: ActiveModel, top: readonly { class_id: number; p: number }[]) {
  const best = top[0];
  if (!best) return null;
  const labelIndex = model.labelIndex.get(best.class_id);
  if (labelIndex === undefined || labelIndex === 0) return null;
  return {
    model_id: model.id,
    class_id: best.class_id,
    label_index: labelIndex,
    confidence: best.p,
    top: top.map((t) => [t.class_id, Math.round(t.p * 1000) / 1000] as [number, number]),
    low: best.p < thresholdFor(model, best.class_id),
  };
}
export type AiLabelling = NonNullable<ReturnType<typeof labelFromTop>>;
