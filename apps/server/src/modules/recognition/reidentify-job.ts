import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { originalName, type BlobStore } from '../../storage/blobs.ts';
import type { RoisService } from '../rois/rois.service.ts';
import { findRoisCore, setConfidences, setReview } from '../rois/rois.repository.ts';
import type { FeaturePool } from './feature-pool.ts';
import { decodeImage } from './features.ts';
import { VECTOR_VERSION } from './vector.ts';
import { loadFeatures, type StoredFeatures } from './features.repository.ts';
import { storeRecomputedFeatures } from './recomputed-features.ts';
import type { JobContext } from './job-runner.ts';
import { reidentifyBatch, type JobRow } from './jobs.repository.ts';
import { saveLabels, unreviewedAmong, type AiLabelRow } from './labels.repository.ts';
import { labelFromTop, type AiLabelling, type ModelStore } from './model-store.ts';
import type { SimilarityIndex } from './similarity.ts';
import { stationOf } from './stations.repository.ts';

export const REID_BATCH = 500;

/**
 * A re-identification job (spec §3, §4): the station's ROIs in the time range (optionally of one AI class) that no
 * human has labelled, in (time, id) order, 500 per step. Each step classifies with the model the job was given,
 * then in one transaction moves labels, class counts and rollups, stores the AI labels and the model's confidence on
 * every ROI it scored (changed or not), sends low-confidence ones to review and records the job's cursor. Human (HI)
 * labels are never overwritten.
 */
export class ReidentifyJob {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rois: RoisService,
    private readonly blobs: BlobStore,
    private readonly models: ModelStore,
    private readonly similarity: SimilarityIndex,
    private readonly pool: FeaturePool,
    private readonly batchSize = REID_BATCH,
  ) {}

  readonly run = async (job: JobRow, ctx: JobContext) => {
    if (job.model_id === null || job.ipp_id === null || job.start_at === null || job.end_at === null) {
      throw new Error('reidentify job without model, station or range');
    }
    const model = await this.models.load(job.model_id, job.group_id);
    if (!model) throw new Error('modelGone');
    const station = await stationOf(this.db.kysely, job.ipp_id);
    let cursor = { time: job.cursor_time, id: job.cursor_id };
    let done = job.done;
    let changed = job.changed;
    for (;;) {
      const batch = await reidentifyBatch(this.db.kysely, job, cursor, this.batchSize);
      if (batch.length === 0) break;
      const stored = await loadFeatures(
        this.db.kysely,
        batch.map((r) => r.id),
        VECTOR_VERSION,
      );
      const computed: StoredFeatures[] = [];
      for (const roi of batch) {
        if (stored.has(roi.id)) continue;
        const blob = await this.blobs.get(originalName(roi.sha256, roi.mime));
        if (!blob) continue;
        const { features: f, sim } = await this.pool.measure(await decodeImage(blob.data), station.threshold);
        const item = { roi_id: roi.id, version: f.version, values: f.values, sim, measures: f.measures };
        computed.push(item);
        stored.set(roi.id, item);
      }
      const labels = new Map<number, AiLabelling>();
      const withFeatures = batch.filter((r) => stored.has(r.id));
      const predictions = model.classifier.predictMany(
        withFeatures.map((r) => stored.get(r.id)!.values),
        3,
      );
      withFeatures.forEach((roi, i) => {
        const top = predictions[i]!;
        const label = labelFromTop(model, top);
        if (label) labels.set(roi.id, label);
      });
      const last = batch[batch.length - 1]!;
      const now = this.clock();
      await this.db.kysely.transaction().execute(async (trx) => {
        // Read again inside the transaction (locked, on PostgreSQL, before anything else is written, as every writer
        // of ROIs does): a human may have labelled or recycled an ROI since the batch was read.
        const rows = (await findRoisCore(trx, [...labels.keys()], this.db.dialect === 'postgres')).filter(
          (r) => r.hi === 0 && r.deleted_at === null,
        );
        await storeRecomputedFeatures(trx, computed, this.db.dialect === 'postgres');
        const changedHere = await this.rois.relabel(
          trx,
          rows,
          (r) => {
            const l = labels.get(r.id)!;
            return { classId: l.class_id, labelIndex: l.label_index, hi: 0 };
          },
          { userId: job.user_id, modelId: job.model_id, action: 'reidentify' },
        );
        const rowsOut: AiLabelRow[] = rows.map((r) => {
          const l = labels.get(r.id)!;
          return {
            roi_id: r.id,
            model_id: l.model_id,
            class_id: l.class_id,
            confidence: l.confidence,
            top: l.top,
            low: l.low,
            labelled_at: now,
          };
        });
        await saveLabels(trx, rowsOut);
        // Every ROI scored carries the model's confidence now, its class changed or not (one current label).
        await setConfidences(trx, new Map(rowsOut.map((r) => [r.roi_id, r.confidence])));
        await confidence(
          trx,
          rows.map((r) => r.id),
          labels,
          now,
        );
        await ctx.step(trx, {
          done: done + batch.length,
          changed: changed + changedHere,
          cursor_time: last.roi_time,
          cursor_id: last.id,
        });
        changed += changedHere;
      });
      done += batch.length;
      cursor = { time: last.roi_time, id: last.id };
      for (const c of computed) this.similarity.update(job.group_id, c.roi_id, c.sim);
    }
    // The count at submission was an estimate: what was worked is the total.
    await this.db.kysely.transaction().execute((trx) => ctx.step(trx, { total: done }));
  };
}

/** Low-confidence labels wait for review; a reviewed ROI keeps its verdict. */
async function confidence(trx: Kysely<Database>, ids: number[], labels: Map<number, { low: boolean }>, now: number) {
  const low = ids.filter((id) => labels.get(id)!.low);
  if (low.length === 0) return;
  await setReview(trx, await unreviewedAmong(trx, low), 1, now);
}
