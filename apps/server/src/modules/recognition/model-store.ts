import type { Db } from '../../db/database.ts';
import { Classifier } from './classifier.ts';
import * as models from './models.repository.ts';

/** Default confidence threshold (vote share) below which an AI label waits in the review queue. */
export const DEFAULT_THRESHOLD = 0.4;
const TTL_MS = 10_000;

export interface ActiveModel {
  id: number;
  version: number;
  classifier: Classifier;
  /** Class id → its threshold (0 = the team default). */
  thresholds: Map<number, number>;
  /** Class id → label index (the AI label an ROI carries, spec §3). */
  labelIndex: Map<number, number>;
}

/**
 * The active model of each team, parsed once and kept; the active id and thresholds are re-read at most every
 * 10 s, so several server processes on one PostgreSQL follow an activation within that time.
 */
export class ModelStore {
  private readonly parsed = new Map<number, Classifier>();
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
    if (!row || row.status !== 'ready') return null;
    if (!classifier) {
      if (row.model === null) return null;
      classifier = Classifier.fromJSON(JSON.parse(row.model));
      this.parsed.set(id, classifier);
    }
    const classes = await this.db.kysely
      .selectFrom('classes')
      .select(['id', 'label_index'])
      .where('label_index', 'is not', null)
      .execute();
    return {
      id,
      version: row.version,
      classifier,
      thresholds: await models.thresholdsOf(this.db.kysely, groupId),
      labelIndex: new Map(classes.map((c) => [c.id, c.label_index!])),
    };
  }

  /** Forget what is cached for a team (after an activation or a threshold change in this process). */
  invalidate(groupId: number) {
    this.active.delete(groupId);
  }
}

/** The threshold that applies to a class: its own, else the team default, else DEFAULT_THRESHOLD. */
export const thresholdFor = (thresholds: Map<number, number>, classId: number) =>
  thresholds.get(classId) ?? thresholds.get(0) ?? DEFAULT_THRESHOLD;

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
    low: best.p < thresholdFor(model.thresholds, best.class_id),
  };
}
export type AiLabelling = NonNullable<ReturnType<typeof labelFromTop>>;
