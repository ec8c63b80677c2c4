import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { idChunks } from '../../db/query-helpers.ts';

/** What a bulk action may change of an ROI's own row; an undo puts back exactly these. */
export interface RoiState {
  class_id: number | null;
  roi_labelindex: number;
  hi: number;
  labelled_by: number | null;
  labelled_at: number | null;
  favorite_at: number | null;
  review_status: number;
  reviewed_at: number | null;
  deleted_at: number | null;
  deleted_by: number | null;
}

export const STATE_FIELDS = [
  'class_id',
  'roi_labelindex',
  'hi',
  'labelled_by',
  'labelled_at',
  'favorite_at',
  'review_status',
  'reviewed_at',
  'deleted_at',
  'deleted_by',
] as const satisfies readonly (keyof RoiState)[];

const num = (v: number | string | null) => (v === null ? null : Number(v));

export async function roiStates(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, RoiState>> {
  const out = new Map<number, RoiState>();
  for (const part of idChunks(ids)) {
    const rows = await db
      .selectFrom('rois')
      .select(['id', ...STATE_FIELDS])
      .where('id', 'in', part)
      .execute();
    for (const r of rows) {
      out.set(r.id, {
        class_id: r.class_id,
        roi_labelindex: r.roi_labelindex,
        hi: r.hi,
        labelled_by: r.labelled_by,
        labelled_at: num(r.labelled_at),
        favorite_at: num(r.favorite_at),
        review_status: r.review_status,
        reviewed_at: num(r.reviewed_at),
        deleted_at: num(r.deleted_at),
        deleted_by: r.deleted_by,
      });
    }
  }
  return out;
}

export const sameState = (a: RoiState, b: RoiState) => STATE_FIELDS.every((f) => a[f] === b[f]);

/** A folder membership: "folder:roi" keys to when the ROI was put there. */
export type Memberships = Map<string, number>;
export const memberKey = (folderId: number, roiId: number) => `${folderId}:${roiId}`;

export async function memberships(db: Kysely<Database>, roiIds: readonly number[]): Promise<Memberships> {
  const out: Memberships = new Map();
  for (const part of idChunks(roiIds)) {
    const rows = await db
      .selectFrom('folder_rois')
      .select(['folder_id', 'roi_id', 'added_at'])
      .where('roi_id', 'in', part)
      .execute();
    for (const r of rows) out.set(memberKey(r.folder_id, r.roi_id), Number(r.added_at));
  }
  return out;
}

export async function maxFolderId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('roi_folders')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function insertAction(
  db: Kysely<Database>,
  row: { user_id: number; code: string; category_id: number; created_at: number },
): Promise<number> {
  const inserted = await db
    .insertInto('bulk_actions')
    .values({ ...row, affected: 0, created_folders: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export interface ChangedRoi {
  roi_id: number;
  before: RoiState;
  after: RoiState;
}
export interface ChangedMember {
  folder_id: number;
  roi_id: number;
  added: number;
  added_at: number;
}

/** Writes what the action changed; the user's earlier actions are dropped (only the last can be undone). */
export async function completeAction(
  db: Kysely<Database>,
  action: { id: number; user_id: number; affected: number; created_folders: readonly number[] },
  rois: readonly ChangedRoi[],
  members: readonly ChangedMember[],
) {
  await db
    .updateTable('bulk_actions')
    .set({ affected: action.affected, created_folders: JSON.stringify(action.created_folders) })
    .where('id', '=', action.id)
    .execute();
  for (const part of idChunks(rois, 300)) {
    await db
      .insertInto('bulk_action_rois')
      .values(
        part.map((r) => ({
          bulk_id: action.id,
          roi_id: r.roi_id,
          before: JSON.stringify(r.before),
          after: JSON.stringify(r.after),
        })),
      )
      .execute();
  }
  for (const part of idChunks(members, 500)) {
    await db
      .insertInto('bulk_action_members')
      .values(part.map((m) => ({ bulk_id: action.id, ...m })))
      .execute();
  }
  await dropActions(db, action.user_id, action.id);
}

/** Drops a user's kept actions other than `keep` (their rows go with them). */
export async function dropActions(db: Kysely<Database>, userId: number, keep: number | null) {
  let q = db.deleteFrom('bulk_actions').where('user_id', '=', userId);
  if (keep !== null) q = q.where('id', '!=', keep);
  await q.execute();
}

export async function deleteAction(db: Kysely<Database>, id: number) {
  await db.deleteFrom('bulk_actions').where('id', '=', id).execute();
}

export async function lastAction(db: Kysely<Database>, userId: number) {
  const row = await db
    .selectFrom('bulk_actions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    created_at: Number(row.created_at),
    undone_at: num(row.undone_at),
    created_folders: JSON.parse(row.created_folders) as number[],
  };
}

/** Claims the action for an undo: true for exactly one caller, however many ask at once. */
export async function markUndone(db: Kysely<Database>, id: number, at: number): Promise<boolean> {
  const result = await db
    .updateTable('bulk_actions')
    .set({ undone_at: at })
    .where('id', '=', id)
    .where('undone_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function changedRois(db: Kysely<Database>, bulkId: number): Promise<ChangedRoi[]> {
  const rows = await db
    .selectFrom('bulk_action_rois')
    .select(['roi_id', 'before', 'after'])
    .where('bulk_id', '=', bulkId)
    .execute();
  return rows.map((r) => ({
    roi_id: r.roi_id,
    before: JSON.parse(r.before) as RoiState,
    after: JSON.parse(r.after) as RoiState,
  }));
}

export async function changedMembers(db: Kysely<Database>, bulkId: number): Promise<ChangedMember[]> {
  const rows = await db
    .selectFrom('bulk_action_members')
    .select(['folder_id', 'roi_id', 'added', 'added_at'])
    .where('bulk_id', '=', bulkId)
    .execute();
  return rows.map((r) => ({ ...r, added_at: Number(r.added_at) }));
}

/** Puts back an ROI's row fields that carry no count (who labelled and when, favourite, review, recycle time). */
export async function setPlainFields(
  db: Kysely<Database>,
  ids: readonly number[],
  values: Partial<
    Pick<RoiState, 'labelled_by' | 'labelled_at' | 'favorite_at' | 'review_status' | 'reviewed_at' | 'deleted_at' | 'deleted_by'>
  >,
) {
  for (const part of idChunks(ids)) await db.updateTable('rois').set(values).where('id', 'in', part).execute();
}

/** Memberships back as they were (with when they had been made); live ROIs count in their folder again. */
export async function reinsertMembers(db: Kysely<Database>, members: readonly ChangedMember[], live: ReadonlySet<number>) {
  const perFolder = new Map<number, number>();
  for (const part of idChunks(members, 500)) {
    await db
      .insertInto('folder_rois')
      .values(part.map((m) => ({ folder_id: m.folder_id, roi_id: m.roi_id, added_at: m.added_at })))
      .execute();
  }
  for (const m of members) if (live.has(m.roi_id)) perFolder.set(m.folder_id, (perFolder.get(m.folder_id) ?? 0) + 1);
  for (const [folderId, n] of [...perFolder].sort((a, b) => a[0] - b[0])) {
    await db
      .updateTable('roi_folders')
      .set((eb) => ({ n: eb('n', '+', n) }))
      .where('id', '=', folderId)
      .execute();
  }
}

/** Which of these folders still exist. */
export async function existingFolders(db: Kysely<Database>, ids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const part of idChunks(ids)) {
    for (const r of await db.selectFrom('roi_folders').select('id').where('id', 'in', part).execute()) out.add(r.id);
  }
  return out;
}

/** Of these folders, those that hold no ROI. */
export async function emptyFolders(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const held = new Set(
    (
      await db
        .selectFrom('folder_rois')
        .select('folder_id')
        .distinct()
        .where('folder_id', 'in', [...ids])
        .execute()
    ).map((r) => r.folder_id),
  );
  const existing = await db
    .selectFrom('roi_folders')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return existing.map((r) => r.id).filter((id) => !held.has(id));
}
