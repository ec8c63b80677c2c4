import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import { FeaturePool } from '../recognition/feature-pool.ts';
import { ModelStore } from '../recognition/model-store.ts';
import { Recognizer } from '../recognition/recognizer.ts';
import { SimilarityIndex } from '../recognition/similarity.ts';
import { RoisService } from '../rois/rois.service.ts';

/**
 * The ingest path of `npm run import`, outside the server: each image measured as the server measures an
 * instrument's (recognition vector, the object's measures, its area as the ROI's size). `close` ends the workers.
 */
export function importRoisService(
  db: Db,
  clock: Clock,
  blobs: BlobStore,
  opts: { statsUtcOffset: number; featureWorkers: number },
): { rois: RoisService; close: () => Promise<void> } {
  const pool = new FeaturePool(opts.featureWorkers);
  const recognizer = new Recognizer(db, new ModelStore(db), new SimilarityIndex(db), clock, pool);
  return { rois: new RoisService(db, clock, blobs, opts.statsUtcOffset, recognizer), close: () => pool.close() };
}
