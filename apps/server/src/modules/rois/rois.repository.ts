import type { Insertable, Kysely } from 'kysely';
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

export function findRoiCore(db: Kysely<Database>, id: number) {
  return db.selectFrom('rois').select(['id', 'ipp_id', 'class_id', 'roi_time']).where('id', '=', id).executeTakeFirst();
}

export async function setRoiClass(db: Kysely<Database>, id: number, classId: number | null, labelIndex: number, hi: number) {
  await db.updateTable('rois').set({ class_id: classId, roi_labelindex: labelIndex, hi }).where('id', '=', id).execute();
}

export async function moveRoi(db: Kysely<Database>, id: number, ippId: number) {
  await db.updateTable('rois').set({ ipp_id: ippId }).where('id', '=', id).execute();
}

export async function deleteRoi(db: Kysely<Database>, id: number) {
  await db.deleteFrom('rois').where('id', '=', id).execute();
}

export async function setFavorite(db: Kysely<Database>, id: number, at: number | null) {
  await db.updateTable('rois').set({ favorite_at: at }).where('id', '=', id).execute();
}

/** The columns of RoiSummary, joined with the station and the class. */
export function summaries(db: Kysely<Database>) {
  return db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .leftJoin('classes as c', 'c.id', 'r.class_id')
    .select([
      'r.id',
      'r.ipp_id',
      'i.dev_id',
      'i.site_name',
      'i.group_id',
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
    ]);
}

export type RoiSummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>['execute']>>[number];
