import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findRoisCore } from '../rois/rois.repository.ts';
import { remeasured } from '../rois/rois.service.ts';
import { saveFeatures, type StoredFeatures } from './features.repository.ts';

/**
 * Features of stored ROIs computed again (training, re-identification, a new feature version): written, and each ROI
 * whose biovolume changed moves between size classes in the size rollups, in the caller's transaction (`lock`:
 * PostgreSQL, see `remeasured`). The ROIs' rows are locked first: an ROI removed meanwhile gets no features (writing
 * them failed the whole transaction on its foreign key), and a removal that comes later waits for this one. At ingest
 * the row and its features come from one analysis, so the recognizer writes the features alone.
 */
export async function storeRecomputedFeatures(trx: Kysely<Database>, rows: readonly StoredFeatures[], lock: boolean) {
  const present = new Set((await findRoisCore(trx, [...new Set(rows.map((r) => r.roi_id))], lock)).map((r) => r.id));
  const kept = rows.filter((r) => present.has(r.roi_id));
  await saveFeatures(trx, kept);
  await remeasured(trx, new Map(kept.map((f) => [f.roi_id, f.measures.biovolume_px3])), lock);
}
