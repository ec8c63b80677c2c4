import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { remeasured } from '../rois/rois.service.ts';
import { saveFeatures, type StoredFeatures } from './features.repository.ts';

/**
 * Features of stored ROIs computed again (training, re-identification, a new feature version): written, and each ROI
 * whose biovolume changed moves between size classes in the size rollups, in the caller's transaction (`lock`:
 * PostgreSQL, see `remeasured`). At ingest the row and its features come from one analysis, so the recognizer writes
 * the features alone.
 */
export async function storeRecomputedFeatures(trx: Kysely<Database>, rows: readonly StoredFeatures[], lock: boolean) {
  await saveFeatures(trx, rows);
  await remeasured(trx, new Map(rows.map((f) => [f.roi_id, f.measures.biovolume_px3])), lock);
}
