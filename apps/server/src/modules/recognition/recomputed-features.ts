import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { originalName, type BlobStore } from '../../storage/blobs.ts';
import { findRoisCore } from '../rois/rois.repository.ts';
import { remeasured } from '../rois/rois.service.ts';
import { descriptorOf } from './descriptor.ts';
import { saveFeatures, type StoredFeatures } from './features.repository.ts';
import { stationOf } from './stations.repository.ts';
import { vectorOfImage } from './vector.ts';

type Station = Awaited<ReturnType<typeof stationOf>>;

/** A ROI's features and similarity descriptor measured from its original image's bytes, as stored. */
export async function measuredItem(roiId: number, image: Buffer, threshold: number | undefined): Promise<StoredFeatures> {
  const f = await vectorOfImage(image, { threshold });
  return { roi_id: roiId, version: f.version, values: f.values, sim: descriptorOf(f.values), measures: f.measures };
}

/**
 * A stored ROI measured again from its original image, with its station's binarization threshold: its features and
 * descriptor, and its station's team (for the similarity index); null when the image is gone. `stations` caches the
 * station of each ipp_id across calls of one request.
 */
export async function measureStoredRoi(
  db: Kysely<Database>,
  blobs: BlobStore,
  roi: { id: number; sha256: string; mime: string; ipp_id: number },
  stations = new Map<number, Promise<Station>>(),
): Promise<{ item: StoredFeatures; groupId: Station['groupId'] } | null> {
  const blob = await blobs.get(originalName(roi.sha256, roi.mime));
  if (!blob) return null;
  let station = stations.get(roi.ipp_id);
  if (!station) stations.set(roi.ipp_id, (station = stationOf(db, roi.ipp_id)));
  const { threshold, groupId } = await station;
  return { item: await measuredItem(roi.id, blob.data, threshold), groupId };
}

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
