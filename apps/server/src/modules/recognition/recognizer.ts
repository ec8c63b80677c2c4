import type { Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { FeaturePool } from './feature-pool.ts';
import type { RawImage, RoiFeatures } from './features.ts';
import { saveFeatures } from './features.repository.ts';
import { saveLabels } from './labels.repository.ts';
import { labelWith, type AiLabelling, type ModelStore } from './model-store.ts';
import type { SimilarityIndex } from './similarity.ts';
import { stationOf } from './stations.repository.ts';

/** What recognition made of one image before it is stored: its features and, when asked, its AI label. */
export interface Analysis {
  features: RoiFeatures;
  sim: Int8Array;
  groupId: number;
  label: AiLabelling | null;
}

/**
 * Recognition at ingest (docs/recognition.md): every ROI is measured with its station's binarization threshold,
 * and one that arrives without a label is classified by its team's active model. RoisService calls analyse()
 * before its transaction and record() inside it, so the ROI, its features and its AI label commit together.
 */
export class Recognizer {
  constructor(
    private readonly db: Db,
    private readonly models: ModelStore,
    private readonly similarity: SimilarityIndex,
    private readonly clock: () => number,
    private readonly pool: FeaturePool,
  ) {}

  /** `pixels`: the upload decoded once (rois/images.ts inspectImage), which also made its thumbnail. */
  async analyse(pixels: RawImage, ippId: number, classify: boolean): Promise<Analysis> {
    const station = await stationOf(this.db.kysely, ippId);
    const { features, sim } = await this.pool.measure(pixels, station.threshold);
    const model = classify ? await this.models.activeFor(station.groupId) : null;
    return {
      features,
      sim,
      groupId: station.groupId,
      label: model ? labelWith(model, features.values) : null,
    };
  }

  /** Inside the ingest transaction: features and AI label (the ROI row itself carries the review status). */
  async record(trx: Kysely<Database>, roiId: number, analysis: Analysis) {
    await saveFeatures(trx, [
      {
        roi_id: roiId,
        version: analysis.features.version,
        values: analysis.features.values,
        sim: analysis.sim,
        measures: analysis.features.measures,
      },
    ]);
    if (analysis.label) {
      const l = analysis.label;
      await saveLabels(trx, [
        {
          roi_id: roiId,
          model_id: l.model_id,
          class_id: l.class_id,
          confidence: l.confidence,
          top: l.top,
          low: l.low,
          labelled_at: this.clock(),
        },
      ]);
    }
  }

  /** After the commit: the team's similarity index learns the new ROI. */
  committed(roiId: number, analysis: Analysis) {
    this.similarity.add(analysis.groupId, roiId, analysis.sim);
  }
}
