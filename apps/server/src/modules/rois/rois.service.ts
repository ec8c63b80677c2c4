import { labelKindCodeOf, labelKindOf, roiFlagsOf, type RoiSummary } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { blobUrl, originalName, sha256Of, thumbName, type BlobStore } from '../../storage/blobs.ts';
import { applyRoiDeltas, bumpRoiRollups, classKeyOf, dayOffsetOfRollups, type RoiDelta } from '../stats/rollups.repository.ts';
import { inspectImage } from './images.ts';
import * as repo from './rois.repository.ts';
import { flagBitsOf } from './roi-flags.ts';
import { bumpReceived } from '../completeness/completeness.repository.ts';
import type { Kysely } from 'kysely';
import type { Recognizer } from '../recognition/recognizer.ts';
import { insertEvents, type LabelEvent } from '../label-history/label-events.repository.ts';
import { labelEvent, SYSTEM_LABEL, type LabelSource } from '../label-history/label-source.ts';

export interface RoiIngest {
  ippId: number;
  capturedAt: number;
  labelIndex: number;
  confidence: number | null;
  /**
   * The object's area in pixels as the instrument measured it; null: the segmented object's area from the image's
   * own measures (imports: a labelled image set carries no segmentation), or its frame without a recognizer.
   */
  sizePx: number | null;
  data: Buffer;
  isDemo?: boolean;
  /** A human label (imports of labelled sets): the ROI is stored as HI in this class. */
  hiClassId?: number;
  /**
   * Imports that carry every label (an EcoTaxa export): the label given is kept as it is, and the model only
   * measures the image (no AI label for an unidentified one).
   */
  keepLabel?: boolean;
  /** The class of a machine label the import carries (with `labelIndex` its label index and `confidence` its score). */
  aiClassId?: number;
  /** Who gave the hand label and when (imports that say so); the review state (1 waiting, 2 approved, 3 rejected). */
  labelledBy?: number | null;
  labelledAt?: number | null;
  reviewStatus?: 0 | 1 | 2 | 3;
  reviewedAt?: number | null;
  /** The image's own micrometres per pixel (an import of another instrument's images); absent = the station's. */
  pixelSizeUm?: number | null;
}

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
    type: labelKindOf(row.hi, row.roi_labelindex),
    size_px: row.size_px,
    pixel_size_um: row.pixel_size_um,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    favorite: row.favorite_at !== null,
    flags: roiFlagsOf(row.flags),
    url: blobUrl(originalName(row.sha256, row.mime)),
    thumb_url: blobUrl(thumbName(row.sha256)),
    labelled_by: row.hi === 1 ? row.labelled_by : null,
    labelled_by_name: row.hi === 1 ? (row.labelled_by_name ?? null) : null,
    labelled_at: row.hi === 1 ? row.labelled_at : null,
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
    /** Features and AI labels at ingest (modules/recognition); tools that only move images go without. */
    private readonly recognizer?: Recognizer,
  ) {}

  /**
   * The upload's files (synced) and its recognition, from one decode. The decoded pixels (up to 64 MiB) live only in
   * here, so they are garbage once recognition has them, not while the row is written.
   */
  private async storeAndAnalyse(input: RoiIngest, sha256: string) {
    const { pixels, ...image } = await inspectImage(input.data);
    await this.blobs.put(originalName(sha256, image.mime), input.data);
    await this.blobs.put(thumbName(sha256), image.thumb);
    const unlabelled = input.labelIndex === 0 && input.hiClassId === undefined && !input.keepLabel;
    const analysis = await this.recognizer?.analyse(pixels, input.ippId, unlabelled);
    return { image, analysis };
  }

  /**
   * Stores an image from an instrument. The files are written and synced before the row commits, so an
   * acknowledged image is durable; the same image again for the same station is a retry and stores nothing.
   */
  async ingest(input: RoiIngest): Promise<{ roiId: number; stored: boolean; sha256: string }> {
    const sha256 = sha256Of(input.data);
    const known = await repo.findRoiBySha(this.db.kysely, input.ippId, sha256);
    if (known) return { roiId: known.id, stored: false, sha256 };
    const { image, analysis } = await this.storeAndAnalyse(input, sha256);
    const ai = analysis?.label ?? null;
    const labelIndex = ai ? ai.label_index : input.labelIndex;
    const hi = input.hiClassId === undefined ? 0 : 1;
    // Everything read or computed before the transaction: it holds a connection (and, on PostgreSQL, row locks) only
    // for its writes.
    const classId =
      input.hiClassId ??
      ai?.class_id ??
      input.aiClassId ??
      (labelIndex === 0 ? null : ((await repo.classIdForLabel(this.db.kysely, labelIndex))?.id ?? null));
    const receivedAt = this.clock();
    const result = await this.db.kysely.transaction().execute(async (trx) => {
      // The station's row first: it serialises with a telemetry report (which locks it), so the sample read next and
      // the later sample's flagging of images after a clean cannot both miss this image.
      await repo.touchLastRoi(trx, input.ippId, receivedAt);
      const flags = flagBitsOf(await repo.telemetryAtOrBefore(trx, input.ippId, input.capturedAt), input.capturedAt);
      const roiId = await repo.insertRoi(trx, {
        ipp_id: input.ippId,
        roi_time: input.capturedAt,
        received_at: receivedAt,
        sha256,
        mime: image.mime,
        bytes: input.data.length,
        width: image.width,
        height: image.height,
        size_px: input.sizePx ?? Math.round(analysis?.features.measures.area_px ?? image.width * image.height),
        biovolume_px3: analysis?.features.measures.biovolume_px3 ?? null,
        roi_labelindex: labelIndex,
        confidence: ai ? ai.confidence : input.confidence,
        class_id: classId,
        hi,
        is_demo_image: input.isDemo ? 1 : 0,
        pixel_size_um: input.pixelSizeUm ?? null,
        flags,
        // An AI label below its class's confidence threshold goes to the review queue.
        ...(ai?.low ? { review_status: 1 } : {}),
        ...(input.reviewStatus ? { review_status: input.reviewStatus, reviewed_at: input.reviewedAt ?? null } : {}),
        ...(hi === 1 && input.labelledAt != null ? { labelled_by: input.labelledBy ?? null, labelled_at: input.labelledAt } : {}),
      });
      if (roiId === undefined) {
        // A concurrent retry won the race: answer its row.
        const winner = await repo.findRoiBySha(trx, input.ippId, sha256);
        return { roiId: winner?.id ?? 0, stored: false, sha256 };
      }
      await bumpRoiRollups(
        trx,
        this.dayOffsetHours,
        input.ippId,
        classKeyOf(classId),
        input.capturedAt,
        1,
        labelKindCodeOf(hi, labelIndex),
        analysis?.features.measures.biovolume_px3 ?? null,
      );
      await bumpReceived(trx, input.ippId, input.capturedAt);
      if (analysis) await this.recognizer!.record(trx, roiId, analysis);
      return { roiId, stored: true, sha256 };
    });
    if (analysis && result.stored) this.recognizer!.committed(result.roiId, analysis);
    if (result.stored && this.blobs.confirm) {
      await this.blobs.confirm(originalName(sha256, image.mime), input.data);
      await this.blobs.confirm(thumbName(sha256), image.thumb);
    }
    return result;
  }

  /** Reclassifies an ROI (AI label or human identification), moving its count between classes. */
  async setClass(roiId: number, classId: number | null, labelIndex: number, hi: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      const rows = await repo.findRoisCore(trx, [roiId], this.db.dialect === 'postgres');
      await this.relabel(trx, rows, () => ({ classId, labelIndex, hi }));
    });
  }

  /** Moves an ROI to another station's gallery. */
  async moveToIpp(roiId: number, ippId: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      const roi = (await repo.findRoisCore(trx, [roiId], this.db.dialect === 'postgres'))[0];
      if (!roi) return;
      await repo.moveRoi(trx, roiId, ippId);
      if (roi.deleted_at !== null) return;
      await applyRoiDeltas(trx, this.dayOffsetHours, [delta(roi, -1), delta({ ...roi, ipp_id: ippId }, 1)]);
    });
  }

  /** Deletes an ROI for good (its folder memberships go with it). */
  async remove(roiId: number) {
    await this.db.kysely.transaction().execute(async (trx) => {
      await this.purge(trx, await repo.findRoisCore(trx, [roiId], this.db.dialect === 'postgres'));
    });
  }

  /**
   * New labels for ROIs, in the caller's transaction: `next` answers each ROI's class, label index and hi flag.
   * Recycled ROIs change label but count nowhere. A human label (hi 1) records the person of `source` (null: unknown)
   * and the time it was given; any other label clears both. An ROI whose label does not change keeps its record.
   * Every change of class or of human/AI is written to the ROI's label history (issue 25) with `source`.
   */
  async relabel(
    trx: Kysely<Database>,
    rows: readonly repo.RoiCore[],
    next: (roi: repo.RoiCore) => { classId: number | null; labelIndex: number; hi: number },
    source: LabelSource = SYSTEM_LABEL,
  ) {
    const deltas: RoiDelta[] = [];
    const groups = new Map<string, number[]>();
    const events: LabelEvent[] = [];
    const at = this.clock();
    for (const roi of rows) {
      const to = next(roi);
      if (to.classId === roi.class_id && to.labelIndex === roi.roi_labelindex && to.hi === roi.hi) continue;
      const key = `${to.classId ?? ''}:${to.labelIndex}:${to.hi}`;
      const group = groups.get(key);
      if (group) group.push(roi.id);
      else groups.set(key, [roi.id]);
      if (to.classId !== roi.class_id || to.hi !== roi.hi) events.push(labelEvent(roi, to, source, at));
      if (roi.deleted_at !== null) continue;
      deltas.push(delta(roi, -1), delta({ ...roi, class_id: to.classId, roi_labelindex: to.labelIndex, hi: to.hi }, 1));
    }
    for (const [key, ids] of groups) {
      const [classId, labelIndex, hi] = key.split(':');
      const human = Number(hi) === 1;
      await repo.setRoisClass(trx, ids, classId === '' ? null : Number(classId), Number(labelIndex), Number(hi), {
        by: human ? source.userId : null,
        at: human ? at : null,
      });
    }
    await insertEvents(trx, events);
    await applyRoiDeltas(trx, this.dayOffsetHours, deltas);
    return [...groups.values()].reduce((a, ids) => a + ids.length, 0);
  }

  /** Live ROIs into the recycle bin: out of every statistic and folder count, memberships kept for a restore. */
  async recycle(trx: Kysely<Database>, rows: readonly repo.RoiCore[], userId: number) {
    const live = rows.filter((r) => r.deleted_at === null);
    if (live.length === 0) return 0;
    const ids = live.map((r) => r.id);
    await repo.setDeleted(trx, ids, this.clock(), userId);
    await repo.adjustFolderCounts(trx, ids, -1);
    await applyRoiDeltas(
      trx,
      this.dayOffsetHours,
      live.map((r) => delta(r, -1)),
    );
    return live.length;
  }

  /** Recycled ROIs back where they were: their statistics, classes and folders. */
  async restore(trx: Kysely<Database>, rows: readonly repo.RoiCore[]) {
    const binned = rows.filter((r) => r.deleted_at !== null);
    if (binned.length === 0) return 0;
    const ids = binned.map((r) => r.id);
    await repo.setDeleted(trx, ids, null, null);
    await repo.adjustFolderCounts(trx, ids, 1);
    await applyRoiDeltas(
      trx,
      this.dayOffsetHours,
      binned.map((r) => delta(r, 1)),
    );
    return binned.length;
  }

  /** Deletes ROIs for good. Image files stay until no row names them (content-addressed, shared by retries). */
  async purge(trx: Kysely<Database>, rows: readonly repo.RoiCore[]) {
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    const live = rows.filter((r) => r.deleted_at === null);
    await repo.adjustFolderCounts(
      trx,
      live.map((r) => r.id),
      -1,
    );
    await repo.deleteRois(trx, ids);
    await applyRoiDeltas(
      trx,
      this.dayOffsetHours,
      live.map((r) => delta(r, -1)),
    );
    return rows.length;
  }
}

/**
 * After ROIs were measured (again) in `trx`, their features already written: each row whose biovolume changed takes
 * the new one and its count moves between size classes, under the row lock every other change of an ROI takes
 * (`lock`: PostgreSQL), so a relabel at the same time reads the biovolume its deltas must carry.
 */
export async function remeasured(trx: Kysely<Database>, biovolumes: ReadonlyMap<number, number>, lock: boolean) {
  if (biovolumes.size === 0) return;
  const rows = await repo.findRoisCore(trx, [...biovolumes.keys()], lock);
  const changed = rows.filter((r) => r.biovolume_px3 !== biovolumes.get(r.id));
  if (changed.length === 0) return;
  await repo.copyBiovolumeFromFeatures(
    trx,
    changed.map((r) => r.id),
  );
  const live = changed.filter((r) => r.deleted_at === null);
  if (live.length === 0) return;
  await applyRoiDeltas(
    trx,
    await dayOffsetOfRollups(trx),
    live.flatMap((r) => [delta(r, -1), delta({ ...r, biovolume_px3: biovolumes.get(r.id)! }, 1)]),
  );
}

const delta = (
  roi: Pick<repo.RoiCore, 'ipp_id' | 'class_id' | 'roi_time' | 'hi' | 'roi_labelindex' | 'biovolume_px3'>,
  n: number,
): RoiDelta => ({
  ippId: roi.ipp_id,
  classKey: classKeyOf(roi.class_id),
  kind: labelKindCodeOf(roi.hi, roi.roi_labelindex),
  roiTime: roi.roi_time,
  delta: n,
  bvPx3: roi.biovolume_px3,
});
