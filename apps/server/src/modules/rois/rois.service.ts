import type { RoiSummary, RoiType } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { blobUrl, originalName, sha256Of, thumbName, type BlobStore } from '../../storage/blobs.ts';
import { bumpRoiRollups, classKeyOf } from '../stats/rollups.repository.ts';
import { inspectImage } from './images.ts';
import * as repo from './rois.repository.ts';
import type { Kysely } from 'kysely';

export interface RoiIngest {
  ippId: number;
  capturedAt: number;
  labelIndex: number;
  confidence: number | null;
  sizePx: number;
  data: Buffer;
  isDemo?: boolean;
}

export const roiTypeOf = (hi: number, labelIndex: number): RoiType => (hi === 1 ? 'hi' : labelIndex === 0 ? 'ui' : 'ai');

export function presentRoi(row: repo.RoiSummaryRow): RoiSummary {
  return {
    id: row.id,
    ipp_id: row.ipp_id,
    dev_id: row.dev_id,
    site_name: row.site_name,
    roi_time: row.roi_time,
    received_at: row.received_at,
    class_id: row.class_id,
    class_name: row.class_name ?? null,
    roi_labelindex: row.roi_labelindex,
    confidence: row.confidence,
    hi: row.hi,
    type: roiTypeOf(row.hi, row.roi_labelindex),
    size_px: row.size_px,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    favorite: row.favorite_at !== null,
    url: blobUrl(originalName(row.sha256, row.mime)),
    thumb_url: blobUrl(thumbName(row.sha256)),
  };
}

/**
 * Every change to the rois table goes through here, each in one transaction with its rollup change
 * (docs/decisions.md "Rollups"), so statistics never scan ROIs and never disagree with them.
 */
export class RoisService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly blobs: BlobStore,
    /** Where statistics days start (STATS_UTC_OFFSET), for the day rollups. */
    private readonly dayOffsetHours: number,
  ) {}

  /**
   * Stores an image from an instrument. The files are written and synced before the row commits, so an
   * acknowledged image is durable; the same image again for the same station is a retry and stores nothing.
   */
  async ingest(input: RoiIngest): Promise<{ roiId: number; stored: boolean; sha256: string }> {
    const sha256 = sha256Of(input.data);
    const known = await repo.findRoiBySha(this.db.kysely, input.ippId, sha256);
    if (known) return { roiId: known.id, stored: false, sha256 };
    const image = await inspectImage(input.data);
    await this.blobs.put(originalName(sha256, image.mime), input.data);
    await this.blobs.put(thumbName(sha256), image.thumb);
    const receivedAt = this.clock();
    return this.db.kysely.transaction().execute(async (trx) => {
      const classId = input.labelIndex === 0 ? null : ((await repo.classIdForLabel(trx, input.labelIndex))?.id ?? null);
      const roiId = await repo.insertRoi(trx, {
        ipp_id: input.ippId,
        roi_time: input.capturedAt,
        received_at: receivedAt,
        sha256,
        mime: image.mime,
        bytes: input.data.length,
        width: image.width,
        height: image.height,
        size_px: input.sizePx,
        roi_labelindex: input.labelIndex,
        confidence: input.confidence,
        class_id: classId,
        is_demo_image: input.isDemo ? 1 : 0,
      });
      if (roiId === undefined) {
        // A concurrent retry won the race: answer its row.
        const winner = await repo.findRoiBySha(trx, input.ippId, sha256);
        return { roiId: winner?.id ?? 0, stored: false, sha256 };
      }
      await bumpRoiRollups(trx, this.dayOffsetHours, input.ippId, classKeyOf(classId), input.capturedAt, 1);
      await trx.updateTable('ipps').set({ last_roi_at: receivedAt }).where('id', '=', input.ippId).execute();
      return { roiId, stored: true, sha256 };
    });
  }

  /** Reclassifies an ROI (AI label or human identification), moving its count between classes. */
  async setClass(roiId: number, classId: number | null, labelIndex: number, hi: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      const roi = await repo.findRoiCore(trx, roiId);
      if (!roi) return;
      await repo.setRoiClass(trx, roiId, classId, labelIndex, hi);
      await moveCount(trx, this.dayOffsetHours, roi, roi.ipp_id, classId);
    });
  }

  /** Moves an ROI to another station's gallery. */
  async moveToIpp(roiId: number, ippId: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      const roi = await repo.findRoiCore(trx, roiId);
      if (!roi) return;
      await repo.moveRoi(trx, roiId, ippId);
      await moveCount(trx, this.dayOffsetHours, roi, ippId, roi.class_id);
    });
  }

  async remove(roiId: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      const roi = await repo.findRoiCore(trx, roiId);
      if (!roi) return;
      await repo.deleteRoi(trx, roiId);
      await bumpRoiRollups(trx, this.dayOffsetHours, roi.ipp_id, classKeyOf(roi.class_id), roi.roi_time, -1);
    });
  }
}

async function moveCount(
  trx: Kysely<Database>,
  offset: number,
  roi: { ipp_id: number; class_id: number | null; roi_time: number },
  ippId: number,
  classId: number | null,
) {
  if (roi.ipp_id === ippId && roi.class_id === classId) return;
  await bumpRoiRollups(trx, offset, roi.ipp_id, classKeyOf(roi.class_id), roi.roi_time, -1);
  await bumpRoiRollups(trx, offset, ippId, classKeyOf(classId), roi.roi_time, 1);
}
