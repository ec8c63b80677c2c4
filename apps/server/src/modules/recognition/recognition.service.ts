import type { FeatureBody, FeatureResult, RoiInsight } from '@ipp/contracts';
import type { Db } from '../../db/database.ts';
import { blobUrl, originalName, type BlobStore } from '../../storage/blobs.ts';
import { classNames } from '../classes/classes.repository.ts';
import { pixelSizeOfRoi, roiImages } from '../rois/rois.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { enhanceImage } from './features.ts';
import { loadMeasures, type StoredFeatures } from './features.repository.ts';
import { findLabel } from './labels.repository.ts';
import { labelWith, type ModelStore } from './model-store.ts';
import { measureStoredRoi, storeRecomputedFeatures } from './recomputed-features.ts';
import { roiNotFound } from '../access/not-found.ts';
import { teamOf, visibleRois } from './scope.ts';
import type { SimilarityIndex } from './similarity.ts';
import { VECTOR_NAMES, VECTOR_VERSION, vectorOfImage } from './vector.ts';

/**
 * Recognition of single images (docs/recognition.md): an ROI's features computed again, its AI label and morphology,
 * an uploaded image classified, a contrast-enhanced rendering. Models and thresholds are in models.service.ts, jobs in
 * jobs.service.ts, similarity and the reference classes in similarity.service.ts.
 */
export class RecognitionService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly store: ModelStore,
    private readonly similarity: SimilarityIndex,
  ) {}

  /** POST /python/feature: computes the features of ROIs again from their images and stores them. */
  async computeFeatures(actor: UserRow, body: FeatureBody): Promise<FeatureResult> {
    const ids = [...new Set([...(body.roi_id !== undefined ? [body.roi_id] : []), ...(body.roi_ids ?? [])])];
    const seen = await visibleRois(this.db.kysely, actor, ids);
    const rows = await roiImages(this.db.kysely, ids);
    const computed: StoredFeatures[] = [];
    const stations = new Map();
    for (const r of rows) {
      const measured = await measureStoredRoi(this.db.kysely, this.blobs, r, stations);
      if (!measured) throw roiNotFound();
      computed.push(measured.item);
    }
    if (actor.is_demo !== 1) {
      await this.db.kysely.transaction().execute((trx) => storeRecomputedFeatures(trx, computed, this.db.dialect === 'postgres'));
      for (const c of computed) this.similarity.update(seen.get(c.roi_id)!.group_id, c.roi_id, c.sim);
    }
    const byId = new Map(computed.map((c) => [c.roi_id, c]));
    return {
      version: VECTOR_VERSION,
      names: [...VECTOR_NAMES],
      items: ids.map((id) => ({ roi_id: id, values: Array.from(byId.get(id)!.values), measures: byId.get(id)!.measures })),
    };
  }

  /** GET /ai/roi: the ROI's AI label (with the model version and best classes) and its morphology. */
  async insight(actor: UserRow, roiId: number): Promise<RoiInsight> {
    await visibleRois(this.db.kysely, actor, [roiId]);
    const label = await findLabel(this.db.kysely, roiId);
    const names = label
      ? await classNames(
          this.db.kysely,
          label.top.map(([id]) => id),
        )
      : new Map<number, string>();
    return {
      roi_id: roiId,
      measures: await loadMeasures(this.db.kysely, roiId),
      pixel_size_um: await pixelSizeOfRoi(this.db.kysely, roiId),
      ai: label && {
        model_id: label.model_id,
        model_version: label.version,
        class_id: label.class_id,
        confidence: label.confidence,
        top: label.top.map(([class_id, p]) => ({ class_id, class_name: names.get(class_id) ?? String(class_id), p })),
        low_confidence: label.low === 1,
        labelled_at: label.labelled_at,
      },
    };
  }

  /** POST /uploads: measures and classifies an image with the caller's team model, storing nothing. */
  async classifyUpload(actor: UserRow, data: Buffer, groupId?: number) {
    const team = await teamOf(this.db.kysely, actor, groupId);
    const f = await vectorOfImage(data);
    const model = await this.store.activeFor(team);
    const label = model ? labelWith(model, f.values) : null;
    const top = model ? model.classifier.predict(f.values, 3) : [];
    const names = await classNames(
      this.db.kysely,
      top.map((t) => t.class_id),
    );
    return {
      measures: f.measures,
      model_id: label?.model_id ?? model?.id ?? null,
      prediction: top.map((t) => ({ class_id: t.class_id, class_name: names.get(t.class_id) ?? String(t.class_id), p: t.p })),
    };
  }

  /** POST /enhance: the contrast-enhanced rendering, made once and kept next to the original. */
  async enhance(actor: UserRow, roiId: number) {
    await visibleRois(this.db.kysely, actor, [roiId]);
    const [r] = await roiImages(this.db.kysely, [roiId]);
    if (!r) throw roiNotFound();
    const name = `${r.sha256}.enh.png`;
    if (!(await this.blobs.get(name))) {
      const blob = await this.blobs.get(originalName(r.sha256, r.mime));
      if (!blob) throw roiNotFound();
      await this.blobs.put(name, await enhanceImage(blob.data));
    }
    return { url: blobUrl(name) };
  }
}
