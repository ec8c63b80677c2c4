import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { originalName, type BlobStore } from '../../storage/blobs.ts';
import { VECTOR_VERSION } from './vector.ts';
import { titleResolver } from '../classes/classes.ts';
import { humanLabelled, imagesWithStationConfig, referenceMembers } from './examples.repository.ts';
import { loadFeatures, type StoredFeatures } from './features.repository.ts';
import { measuredItem, storeRecomputedFeatures } from './recomputed-features.ts';
import { JobLost, type JobContext } from './job-runner.ts';
import type { JobRow } from './jobs.repository.ts';
import type { ModelStore } from './model-store.ts';
import * as models from './models.repository.ts';
import { trainAndEvaluate, type TrainInput, type TrainOutput } from './training.ts';

/** Human-labelled examples kept per class (the most recent), so training time stays bounded. */
export const MAX_PER_CLASS = 1500;
/** A class needs this many examples to be learned. */
export const MIN_PER_CLASS = 3;

/** Training progress is reported in thousandths: gathering features is the first 30%, the forests the rest. */
const TOTAL = 1000;

/**
 * A training job (docs/recognition.md "Classifier"): the team's HI ROIs, its reference library (-2) and the Xcube
 * library (-1), their features (computed where missing), then cross-validation and the final forest in a worker
 * thread. The first model of a team becomes active; later ones wait for an administrator.
 */
export class TrainJob {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
    private readonly store: ModelStore,
    private readonly inProcess = false,
  ) {}

  readonly run = async (job: JobRow, ctx: JobContext) => {
    const modelId = job.model_id!;
    try {
      await this.train(job, modelId, ctx);
    } catch (err) {
      if (err instanceof JobLost) {
        await this.markFailed(modelId, 'cancelled');
        throw err;
      }
      await this.markFailed(modelId, err instanceof Error ? err.message : String(err));
      throw err;
    }
  };

  private async train(job: JobRow, modelId: number, ctx: JobContext) {
    const k = this.db.kysely;
    const examples = await gatherExamples(k, job.group_id);
    await k.transaction().execute((trx) => ctx.step(trx, { total: TOTAL, done: 20 }));
    const features = await this.featuresOf(examples, ctx);
    const usable = examples.filter((e) => features.has(e.roi_id));
    const counts = new Map<number, number>();
    for (const e of usable) counts.set(e.class_id, (counts.get(e.class_id) ?? 0) + 1);
    const kept = usable.filter((e) => counts.get(e.class_id)! >= MIN_PER_CLASS);
    if (new Set(kept.map((e) => e.class_id)).size < 2) throw new Error('notEnoughData');
    const input: TrainInput = {
      x: kept.map((e) => Array.from(features.get(e.roi_id)!.values)),
      y: kept.map((e) => e.class_id),
      accepted: kept.map((e) => e.accepted),
      seed: modelId,
    };
    const output = await this.fit(input, ctx);
    const now = this.clock();
    await k.transaction().execute(async (trx) => {
      await models.saveTrained(trx, modelId, output, now);
      if ((await models.activeModelId(trx, job.group_id)) === null) await models.activate(trx, job.group_id, modelId, now);
      await ctx.step(trx, { done: TOTAL });
    });
    this.store.invalidate(job.group_id);
  }

  /** Stored features of the examples; the missing ones are computed from the images (0.02 → 0.3 of progress). */
  private async featuresOf(examples: Example[], ctx: JobContext) {
    const k = this.db.kysely;
    const ids = examples.map((e) => e.roi_id);
    const out = await loadFeatures(k, ids, VECTOR_VERSION);
    const missing = ids.filter((id) => !out.has(id));
    for (let i = 0; i < missing.length; i += 100) {
      const part = missing.slice(i, i + 100);
      const rows = await imagesWithStationConfig(k, part);
      const computed: StoredFeatures[] = [];
      for (const r of rows) {
        const blob = await this.blobs.get(originalName(r.sha256, r.mime));
        if (!blob) continue;
        const threshold = (JSON.parse(r.config) as { binarization_threshold?: number }).binarization_threshold;
        const item = await measuredItem(r.id, blob.data, threshold);
        computed.push(item);
        out.set(r.id, item);
      }
      await k.transaction().execute(async (trx) => {
        await storeRecomputedFeatures(trx, computed, this.db.dialect === 'postgres');
        await ctx.step(trx, { done: 20 + Math.round((280 * (i + part.length)) / missing.length) });
      });
    }
    return out;
  }

  /** The forests, in a worker thread (the server keeps answering); progress 0.3 → 0.99, lease renewed meanwhile. */
  private fit(input: TrainInput, ctx: JobContext): Promise<TrainOutput> {
    let last = 0;
    const report = (fraction: number) => {
      const now = Date.now();
      if (now - last < 1000 && fraction < 1) return Promise.resolve(true);
      last = now;
      return this.db.kysely
        .transaction()
        .execute((trx) => ctx.step(trx, { done: 300 + Math.round(690 * fraction) }))
        .then(() => true)
        .catch(() => false);
    };
    if (this.inProcess) return Promise.resolve(trainAndEvaluate(input, (f) => void report(f)));
    return new Promise<TrainOutput>((resolve, reject) => {
      const worker = new Worker(new URL('./train-worker.mjs', import.meta.url), {
        workerData: input,
      });
      const beat = setInterval(() => {
        void ctx.heartbeat().then((ok) => {
          if (!ok) {
            clearInterval(beat);
            void worker.terminate();
            reject(new JobLost());
          }
        });
      }, 5000);
      worker.on('message', (m: { progress?: number; result?: TrainOutput }) => {
        if (m.result) {
          clearInterval(beat);
          resolve(m.result);
        } else if (m.progress !== undefined) void report(m.progress);
      });
      worker.on('error', (err) => {
        clearInterval(beat);
        reject(err);
      });
      worker.on('exit', (code) => {
        clearInterval(beat);
        if (code !== 0) reject(new Error(`training worker exited with ${code}`));
      });
    });
  }

  private async markFailed(modelId: number, error: string) {
    await models.failTraining(this.db.kysely, modelId, error.slice(0, 500), this.clock());
  }
}

export interface Example {
  roi_id: number;
  class_id: number;
  /** Every class the ROI was filed under (HI class and reference folders): any counts as right. */
  accepted: number[];
}

/** The team's human-labelled ROIs, its reference library and the Xcube library, one example per ROI. */
export async function gatherExamples(db: Kysely<Database>, groupId: number): Promise<Example[]> {
  const byRoi = new Map<number, Example>();
  const add = (roiId: number, classId: number) => {
    const e = byRoi.get(roiId);
    if (!e) byRoi.set(roiId, { roi_id: roiId, class_id: classId, accepted: [classId] });
    else if (!e.accepted.includes(classId)) e.accepted.push(classId);
  };
  for (const r of await humanLabelled(db, groupId)) add(r.id, r.class_id!);
  const classOfTitle = await titleResolver(db);
  for (const r of await referenceMembers(db, groupId)) {
    const cls = classOfTitle(r.title);
    if (cls) add(r.roi_id, cls.id);
  }
  const perClass = new Map<number, number>();
  return [...byRoi.values()].filter((e) => {
    const n = (perClass.get(e.class_id) ?? 0) + 1;
    perClass.set(e.class_id, n);
    return n <= MAX_PER_CLASS;
  });
}
