import { ROI_FLAG_BITS, ROI_FLAG_RULES } from '@ipp/contracts';
import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { idChunks } from '../../db/query-helpers.ts';
import type { Database, RoisTable } from '../../db/schema.ts';

export function classIdForLabel(db: Kysely<Database>, labelIndex: number) {
  return db.selectFrom('classes').select('id').where('label_index', '=', labelIndex).executeTakeFirst();
}

export function findRoiBySha(db: Kysely<Database>, ippId: number, sha256: string) {
  return db.selectFrom('rois').select('id').where('ipp_id', '=', ippId).where('sha256', '=', sha256).executeTakeFirst();
}

/** Inserts an ROI unless this station already has the same image; answers the new id or undefined. */
export async function insertRoi(db: Kysely<Database>, row: Insertable<RoisTable>): Promise<number | undefined> {
  const inserted = await db
    .insertInto('rois')
    .values(row)
    .onConflict((oc) => oc.columns(['ipp_id', 'sha256']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

const CORE = [
  'r.id',
  'r.ipp_id',
  'r.class_id',
  'r.roi_time',
  'r.hi',
  'r.roi_labelindex',
  'r.deleted_at',
  'r.is_demo_image',
  'r.favorite_at',
  'r.biovolume_px3',
] as const;
/** What every state change needs of an ROI, with its station's team. */
export type RoiCore = Pick<
  Selectable<RoisTable>,
  | 'id'
  | 'ipp_id'
  | 'class_id'
  | 'roi_time'
  | 'hi'
  | 'roi_labelindex'
  | 'deleted_at'
  | 'is_demo_image'
  | 'favorite_at'
  | 'biovolume_px3'
> & { group_id: number };

/** The columns every state change needs, for the ids that exist (in no particular order). */
/**
 * The ROIs' core columns. `lock` (PostgreSQL, in a write transaction) locks their rows in id order until the
 * transaction ends, so two transactions changing the same ROIs (two requests, two server processes) take turns and
 * each applies its rollup deltas to what the other left, never both to the same old state.
 */
export async function findRoisCore(db: Kysely<Database>, ids: readonly number[], lock = false): Promise<RoiCore[]> {
  const out: RoiCore[] = [];
  const unique = [...new Set(ids)];
  if (lock) unique.sort((a, b) => a - b);
  for (const part of idChunks(unique)) {
    const query = db
      .selectFrom('rois as r')
      .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
      .select([...CORE, 'i.group_id'])
      .where('r.id', 'in', part);
    const rows = await (lock ? query.orderBy('r.id').forUpdate('r') : query).execute();
    out.push(...rows.map((r) => ({ ...r, deleted_at: r.deleted_at === null ? null : Number(r.deleted_at) })));
  }
  return out;
}

/** Sets the favourite mark (null clears it) on those of `ids` that differ; answers how many changed. */
export async function setFavorites(db: Kysely<Database>, ids: readonly number[], at: number | null) {
  let changed = 0;
  for (const part of idChunks(ids)) {
    const result = await db
      .updateTable('rois')
      .set({ favorite_at: at })
      .where('id', 'in', part)
      .where('favorite_at', at === null ? 'is not' : 'is', null)
      .executeTakeFirst();
    changed += Number(result.numUpdatedRows);
  }
  return changed;
}

/**
 * The ROIs' current confidence (issue 38: one current label per ROI): a re-identification writes the model's
 * calibrated confidence on every ROI it scores, changed or not, so the grid, the list, the export and the review
 * order read what the detail pane reads. One statement per chunk, by a CASE on the id.
 */
export async function setConfidences(db: Kysely<Database>, values: ReadonlyMap<number, number>) {
  for (const part of idChunks([...values.keys()], 500)) {
    const cases = sql.join(
      part.map((id) => sql`when ${id} then cast(${values.get(id)!} as double precision)`),
      sql` `,
    );
    await db
      .updateTable('rois')
      .set({ confidence: sql<number>`case id ${cases} end` })
      .where('id', 'in', part)
      .execute();
  }
}

/** Approves the ROIs among `ids` that wait for review (state 1); other states are left as they are. */
export async function approveWaiting(db: Kysely<Database>, ids: readonly number[], at: number) {
  for (const part of idChunks(ids)) {
    await db
      .updateTable('rois')
      .set({ review_status: 2, reviewed_at: at })
      .where('id', 'in', part)
      .where('review_status', '=', 1)
      .execute();
  }
}

/** Sets the review state (1 waiting, 2 approved, 3 rejected) where it differs; answers how many changed. */
export async function setReview(db: Kysely<Database>, ids: readonly number[], status: number, at: number) {
  let changed = 0;
  for (const part of idChunks(ids)) {
    const result = await db
      .updateTable('rois')
      .set({ review_status: status, reviewed_at: status === 1 ? null : at })
      .where('id', 'in', part)
      .where('review_status', '!=', status)
      .executeTakeFirst();
    changed += Number(result.numUpdatedRows);
  }
  return changed;
}

export async function setRoisClass(
  db: Kysely<Database>,
  ids: readonly number[],
  classId: number | null,
  labelIndex: number,
  hi: number,
  labelled: { by: number | null; at: number | null },
) {
  for (const part of idChunks(ids)) {
    await db
      .updateTable('rois')
      .set({ class_id: classId, roi_labelindex: labelIndex, hi, labelled_by: labelled.by, labelled_at: labelled.at })
      .where('id', 'in', part)
      .execute();
  }
}

/** The ROIs' rows take their features' biovolume (written in the same transaction just before). */
export async function copyBiovolumeFromFeatures(db: Kysely<Database>, ids: readonly number[]) {
  for (const part of idChunks(ids)) {
    await db
      .updateTable('rois')
      .set((eb) => ({
        biovolume_px3: eb.selectFrom('roi_features as f').select('f.biovolume').whereRef('f.roi_id', '=', 'rois.id'),
      }))
      .where('id', 'in', part)
      .execute();
  }
}

export async function moveRoi(db: Kysely<Database>, id: number, ippId: number) {
  await db.updateTable('rois').set({ ipp_id: ippId }).where('id', '=', id).execute();
}

export async function setDeleted(db: Kysely<Database>, ids: readonly number[], at: number | null, by: number | null) {
  for (const part of idChunks(ids)) {
    await db.updateTable('rois').set({ deleted_at: at, deleted_by: by }).where('id', 'in', part).execute();
  }
}

export async function deleteRois(db: Kysely<Database>, ids: readonly number[]) {
  for (const part of idChunks(ids)) {
    await db.deleteFrom('folder_rois').where('roi_id', 'in', part).execute();
    await db.deleteFrom('rois').where('id', 'in', part).execute();
  }
}

export async function setFavorite(db: Kysely<Database>, id: number, at: number | null) {
  await db.updateTable('rois').set({ favorite_at: at }).where('id', '=', id).execute();
}

/** The columns of RoiSummary, joined with the station, the class and the person who gave its HI label. */
/** A station's telemetry sample at or before a time (the instrument's state when an image was captured). */
export function telemetryAtOrBefore(db: Kysely<Database>, ippId: number, at: number) {
  return db
    .selectFrom('telemetry')
    .selectAll()
    .where('ipp_id', '=', ippId)
    .where('at', '<=', at)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Flags the images a station captured within the settle time after a wiper clean that a later sample told of (an image
 * is often stored before the sample that reports the clean it followed). Only rows not yet flagged are written.
 */
export function flagCleanedRois(db: Kysely<Database>, ippId: number, cleanAt: number) {
  return db
    .updateTable('rois')
    .set({ flags: sql<number>`flags | ${sql.lit(ROI_FLAG_BITS.wiper)}` })
    .where('ipp_id', '=', ippId)
    .where('roi_time', '>=', cleanAt)
    .where('roi_time', '<=', cleanAt + ROI_FLAG_RULES.wiperSettleMs)
    .where(sql<boolean>`(flags & ${sql.lit(ROI_FLAG_BITS.wiper)}) = 0`)
    .execute();
}

export function summaries(db: Kysely<Database>) {
  return db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .leftJoin('classes as c', 'c.id', 'r.class_id')
    .leftJoin('users as labeller', 'labeller.id', 'r.labelled_by')
    .select([
      'r.id',
      'r.ipp_id',
      'i.dev_id',
      'i.site_name',
      'i.group_id',
      // The image's own pixel size where an import gave one (issue 37), else its station's.
      sql<number | null>`coalesce(r.pixel_size_um, i.pixel_size_um)`.as('pixel_size_um'),
      'r.roi_time',
      'r.received_at',
      'r.class_id',
      'c.name as class_name',
      'r.roi_labelindex',
      'r.confidence',
      'r.hi',
      'r.size_px',
      'r.bytes',
      'r.width',
      'r.height',
      'r.favorite_at',
      'r.sha256',
      'r.mime',
      'r.labelled_by',
      'r.labelled_at',
      'r.flags',
      'labeller.name as labelled_by_name',
    ]);
}

export type RoiSummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['execute']>>[number];

/**
 * Which of these content hashes some ROI names. Probes the (station, hash) unique index once per station and hash,
 * so it needs no index of its own on the hash.
 */
export async function existingHashes(db: Kysely<Database>, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const ipps = (await db.selectFrom('ipps').select('id').execute()).map((r) => r.id);
  if (ipps.length === 0) return new Set();
  const rows = await db
    .selectFrom('rois')
    .select('sha256')
    .distinct()
    .where('ipp_id', 'in', ipps)
    .where('sha256', 'in', [...hashes])
    .execute();
  return new Set(rows.map((r) => r.sha256));
}

/** The micrometres per pixel of an ROI: its own (an import's), else its station's (null: not set, or no such ROI). */
export async function pixelSizeOfRoi(db: Kysely<Database>, roiId: number): Promise<number | null> {
  const row = await db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .select(sql<number | null>`coalesce(r.pixel_size_um, i.pixel_size_um)`.as('pixel_size_um'))
    .where('r.id', '=', roiId)
    .executeTakeFirst();
  return row?.pixel_size_um ?? null;
}

/** Where the ROIs' original images are (content address and type), and their station. */
export function roiImages(db: Kysely<Database>, ids: readonly number[]) {
  return db.selectFrom('rois').select(['id', 'sha256', 'mime', 'ipp_id']).where('id', 'in', ids).execute();
}

/** How many ROIs (live or recycled) carry the class. */
export async function countRoisOfClass(db: Kysely<Database>, classId: number): Promise<number> {
  const used = await db
    .selectFrom('rois')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('class_id', '=', classId)
    .executeTakeFirstOrThrow();
  return Number(used.n);
}

/** Ids of the ROIs in the recycle bin, of every team or of one team's stations. */
export async function recycledRoiIds(db: Kysely<Database>, team?: number): Promise<number[]> {
  let q = db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .select('r.id')
    .where('r.deleted_at', 'is not', null);
  if (team !== undefined) q = q.where('i.group_id', '=', team);
  return (await q.execute()).map((r) => r.id);
}

/** The previous and next ROI of a station by capture time (ties broken by id). */
export async function neighbours(db: Kysely<Database>, ippId: number, roiTime: number, id: number) {
  const [previous, next] = await Promise.all([
    db
      .selectFrom('rois')
      .select('id')
      .where('ipp_id', '=', ippId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('roi_time', '<', roiTime), eb.and([eb('roi_time', '=', roiTime), eb('id', '<', id)])]))
      .orderBy('roi_time', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('rois')
      .select('id')
      .where('ipp_id', '=', ippId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('roi_time', '>', roiTime), eb.and([eb('roi_time', '=', roiTime), eb('id', '>', id)])]))
      .orderBy('roi_time', 'asc')
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return { previous: previous?.id ?? null, next: next?.id ?? null };
}

/** The station's newest-image time; the first write of an image's transaction (it serialises with telemetry). */
export async function touchLastRoi(trx: Kysely<Database>, ippId: number, receivedAt: number) {
  await trx.updateTable('ipps').set({ last_roi_at: receivedAt }).where('id', '=', ippId).execute();
}

/** Folder counts follow their live members. */
export async function adjustFolderCounts(trx: Kysely<Database>, roiIds: readonly number[], sign: 1 | -1) {
  for (const part of idChunks(roiIds)) {
    const perFolder = await trx
      .selectFrom('folder_rois')
      .select(['folder_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('roi_id', 'in', part)
      .groupBy('folder_id')
      .execute();
    for (const f of perFolder) {
      await trx
        .updateTable('roi_folders')
        .set((eb) => ({ n: eb('n', '+', sign * Number(f.n)) }))
        .where('id', '=', f.folder_id)
        .execute();
    }
  }
}

/**
 * The same as SQL over a telemetry row `t` and a capture time (for migration 0021's backfill of existing ROIs): the
 * trends test proves both give the same flags.
 */
export function flagBitsSql(capturedAt: RawBuilder<number>): RawBuilder<number> {
  const range = ROI_FLAG_RULES.temperatureC;
  const settle = sql.lit(ROI_FLAG_RULES.wiperSettleMs);
  return sql<number>`(case when (t.wiper_state = 'cleaning' and ${capturedAt} - t.at <= ${settle}) or (t.wiper_last_clean_at is not null
      and ${capturedAt} >= t.wiper_last_clean_at and ${capturedAt} - t.wiper_last_clean_at <= ${settle})
      then ${sql.lit(ROI_FLAG_BITS.wiper)} else 0 end)
    + (case when coalesce(t.uvc_illuminator_duty_pct, 0) > 0 then ${sql.lit(ROI_FLAG_BITS.uvc)} else 0 end)
    + (case when t.temperature_c < ${sql.lit(range.min)} or t.temperature_c > ${sql.lit(range.max)}
      then ${sql.lit(ROI_FLAG_BITS.temperature)} else 0 end)`;
}
