import crypto from 'node:crypto';
import { MAX_ID } from '@ipp/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, RoiFoldersTable } from '../../db/schema.ts';
import { idChunks } from '../../db/query-helpers.ts';

export type FolderRow = Selectable<RoiFoldersTable>;

/** Who a folder belongs to: a category, and within it a team, a station or a user (null where it does not apply). */
export interface FolderScope {
  category_id: number;
  group_id: number | null;
  ipp_id: number | null;
  user_id: number | null;
}

export const findFolder = (db: Kysely<Database>, id: number) =>
  db.selectFrom('roi_folders').selectAll().where('id', '=', id).executeTakeFirst();

export const findFolderByCode = (db: Kysely<Database>, code: string) =>
  db.selectFrom('roi_folders').selectAll().where('code', '=', code).executeTakeFirst();

/** A folder by its stored code (rf…) or by its tree code (f:<id>). */
export function findFolderByAnyCode(db: Kysely<Database>, code: string) {
  const tree = /^f:(\d{1,10})$/.exec(code);
  if (!tree) return findFolderByCode(db, code);
  // Ids are 32-bit: a larger one names no folder (and PostgreSQL would fail the query on it).
  const id = Number(tree[1]);
  return id <= MAX_ID ? findFolder(db, id) : Promise.resolve(undefined);
}

/** Folders of a category for a team / station / user; `undefined` in a filter means any. */
export function listFolders(
  db: Kysely<Database>,
  categoryId: number,
  filter: { groupId?: number | null; ippId?: number; userId?: number },
) {
  let q = db.selectFrom('roi_folders').selectAll().where('category_id', '=', categoryId);
  if (filter.groupId === null) q = q.where('group_id', 'is', null);
  else if (filter.groupId !== undefined) q = q.where('group_id', '=', filter.groupId);
  if (filter.ippId !== undefined) q = q.where('ipp_id', '=', filter.ippId);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  return q.orderBy('title').orderBy('id').execute();
}

export function findFolderByTitle(db: Kysely<Database>, scope: FolderScope, title: string) {
  let q = db.selectFrom('roi_folders').selectAll().where('category_id', '=', scope.category_id).where('title', '=', title);
  for (const key of ['group_id', 'ipp_id', 'user_id'] as const) {
    const value = scope[key];
    q = value === null ? q.where(key, 'is', null) : q.where(key, '=', value);
  }
  return q.executeTakeFirst();
}

export async function insertFolder(db: Kysely<Database>, scope: FolderScope, title: string, now: number): Promise<FolderRow> {
  return db
    .insertInto('roi_folders')
    .values({ ...scope, title, code: `rf${crypto.randomBytes(8).toString('hex')}`, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The folder with that title in that scope, created when missing (galleries keep one folder per class). */
export async function ensureFolder(db: Kysely<Database>, scope: FolderScope, title: string, now: number) {
  return (await findFolderByTitle(db, scope, title)) ?? insertFolder(db, scope, title, now);
}

export async function updateFolder(
  db: Kysely<Database>,
  id: number,
  values: Partial<Pick<FolderRow, 'title' | 'attention' | 'status'>>,
  now: number,
) {
  await db
    .updateTable('roi_folders')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteFolders(db: Kysely<Database>, ids: readonly number[]) {
  for (const part of idChunks(ids)) {
    await db.deleteFrom('folder_rois').where('folder_id', 'in', part).execute();
    await db.deleteFrom('roi_folders').where('id', 'in', part).execute();
  }
}

/**
 * Puts ROIs in a folder; those already there are left alone. `live` are the ones not in the recycle bin (only they
 * count). Answers how many were added.
 */
export async function addMembers(
  db: Kysely<Database>,
  folderId: number,
  roiIds: readonly number[],
  live: ReadonlySet<number>,
  now: number,
) {
  let added = 0;
  let addedLive = 0;
  for (const part of idChunks(roiIds, 500)) {
    const present = new Set(
      (
        await db
          .selectFrom('folder_rois')
          .select('roi_id')
          .where('folder_id', '=', folderId)
          .where('roi_id', 'in', part)
          .execute()
      ).map((r) => r.roi_id),
    );
    const fresh = part.filter((id) => !present.has(id));
    if (fresh.length === 0) continue;
    await db
      .insertInto('folder_rois')
      .values(fresh.map((roi_id) => ({ folder_id: folderId, roi_id, added_at: now })))
      .execute();
    added += fresh.length;
    addedLive += fresh.filter((id) => live.has(id)).length;
  }
  if (addedLive > 0) await bumpCount(db, folderId, addedLive);
  return added;
}

/**
 * Ends these ROIs' memberships of these folders and answers the memberships the delete itself ended (RETURNING): a
 * second call for the same ROIs, after another took them out, ends none. Each folder's stored count loses its live
 * members taken out.
 */
async function endMemberships(
  db: Kysely<Database>,
  folderIds: readonly number[],
  roiIds: readonly number[],
  live: ReadonlySet<number>,
): Promise<{ folder_id: number; roi_id: number }[]> {
  if (folderIds.length === 0) return [];
  const ended: { folder_id: number; roi_id: number }[] = [];
  const perFolder = new Map<number, number>();
  for (const part of idChunks(roiIds, 500)) {
    const rows = await db
      .deleteFrom('folder_rois')
      .where('folder_id', 'in', folderIds)
      .where('roi_id', 'in', part)
      .returning(['folder_id', 'roi_id'])
      .execute();
    for (const r of rows) {
      ended.push(r);
      if (live.has(r.roi_id)) perFolder.set(r.folder_id, (perFolder.get(r.folder_id) ?? 0) + 1);
    }
  }
  for (const [folderId, n] of perFolder) await bumpCount(db, folderId, -n);
  return ended;
}

/** Takes ROIs out of folders; answers how many memberships ended. */
export async function removeMembers(
  db: Kysely<Database>,
  folderIds: readonly number[],
  roiIds: readonly number[],
  live: ReadonlySet<number>,
) {
  return (await endMemberships(db, folderIds, roiIds, live)).length;
}

/**
 * Takes ROIs out of folders and answers which of them were taken out of at least one, so a move that comes second,
 * after another move took the same ROIs out, finds none and moves none.
 */
export async function takeMembers(
  db: Kysely<Database>,
  folderIds: readonly number[],
  roiIds: readonly number[],
  live: ReadonlySet<number>,
): Promise<Set<number>> {
  return new Set((await endMemberships(db, folderIds, roiIds, live)).map((r) => r.roi_id));
}

/** Member ids of a folder (live and recycled). */
export async function memberIds(db: Kysely<Database>, folderId: number): Promise<number[]> {
  return (await db.selectFrom('folder_rois').select('roi_id').where('folder_id', '=', folderId).execute()).map((r) => r.roi_id);
}

/** Which of these folders hold a live demo image (spec §6: demo images support no operation). */
export async function foldersWithDemoImages(db: Kysely<Database>, folderIds: readonly number[]): Promise<Set<number>> {
  if (folderIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('folder_rois as fr')
    .innerJoin('rois as r', 'r.id', 'fr.roi_id')
    .select('fr.folder_id')
    .distinct()
    .where('fr.folder_id', 'in', folderIds)
    .where('r.is_demo_image', '=', 1)
    .where('r.deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.folder_id));
}

async function bumpCount(db: Kysely<Database>, folderId: number, delta: number) {
  await db
    .updateTable('roi_folders')
    .set((eb) => ({ n: eb('n', '+', delta) }))
    .where('id', '=', folderId)
    .execute();
}

/** The folder or class a shortcut's node code ends in (`…c:<class>`, `f:<folder>`); none for groups and stations. */
function shortcutTarget(code: string): { folderId?: number; classId?: number } {
  // Nine digits at most: every stored id (32-bit) that can still exist.
  const m = /(?:^|:)([cf]):(\d{1,9})$/.exec(code);
  if (!m) return {};
  const id = Number(m[2]);
  return m[1] === 'f' ? { folderId: id } : id > 0 ? { classId: id } : {};
}

/**
 * A user's toolbar shortcuts as their nodes stand now: a shortcut to a folder or class deleted since is left out,
 * one renamed since shows the new name (the stored title is what the node was called when it was added).
 */
export async function listToolbar(db: Kysely<Database>, userId: number) {
  const items = await db
    .selectFrom('toolbar_items')
    .select(['id', 'category_id', 'code', 'title'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const targets = items.map((item) => shortcutTarget(item.code));
  const folderIds = [...new Set(targets.flatMap((t) => (t.folderId === undefined ? [] : [t.folderId])))];
  const classIds = [...new Set(targets.flatMap((t) => (t.classId === undefined ? [] : [t.classId])))];
  const folderTitles = new Map(
    folderIds.length === 0
      ? []
      : (await db.selectFrom('roi_folders').select(['id', 'title']).where('id', 'in', folderIds).execute()).map(
          (f) => [f.id, f.title] as const,
        ),
  );
  const classNames = new Map(
    classIds.length === 0
      ? []
      : (await db.selectFrom('classes').select(['id', 'name']).where('id', 'in', classIds).execute()).map(
          (c) => [c.id, c.name] as const,
        ),
  );
  return items.flatMap((item, i) => {
    const { folderId, classId } = targets[i]!;
    const title =
      folderId !== undefined ? folderTitles.get(folderId) : classId !== undefined ? classNames.get(classId) : item.title;
    return title === undefined ? [] : [{ ...item, title }];
  });
}

/** Adds a toolbar shortcut for a user, keeping the one already there (one statement: two calls at once both pass). */
export async function insertToolbarItem(
  db: Kysely<Database>,
  userId: number,
  item: { category_id: number; code: string; title: string },
  now: number,
) {
  await db
    .insertInto('toolbar_items')
    .values({ user_id: userId, ...item, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'category_id', 'code']).doNothing())
    .execute();
}

/** A user's toolbar shortcut to that node (id, category, code, stored title); throws when there is none. */
export function findToolbarItem(db: Kysely<Database>, userId: number, categoryId: number, code: string) {
  return db
    .selectFrom('toolbar_items')
    .select(['id', 'category_id', 'code', 'title'])
    .where('user_id', '=', userId)
    .where('category_id', '=', categoryId)
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
}

/** Deletes one of a user's toolbar shortcuts; answers how many rows went (0 or 1). */
export async function deleteToolbarItem(db: Kysely<Database>, userId: number, id: number): Promise<number> {
  const gone = await db.deleteFrom('toolbar_items').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(gone.numDeletedRows);
}

/** Ids of every folder, or of one team's folders. */
export async function folderIds(db: Kysely<Database>, team?: number): Promise<number[]> {
  let q = db.selectFrom('roi_folders').select('id');
  if (team !== undefined) q = q.where('group_id', '=', team);
  return (await q.execute()).map((r) => r.id);
}

/** How many live (not recycled) members each of these folders has; folders with none are absent from the map. */
export async function liveMemberCounts(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, number>> {
  const counted = await db
    .selectFrom('folder_rois as fr')
    .innerJoin('rois as r', 'r.id', 'fr.roi_id')
    .select(['fr.folder_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('fr.folder_id', 'in', ids)
    .where('r.deleted_at', 'is', null)
    .groupBy('fr.folder_id')
    .execute();
  return new Map(counted.map((c) => [c.folder_id, Number(c.n)]));
}

/** Sets a folder's stored member count; answers nothing. */
export async function setFolderCount(db: Kysely<Database>, id: number, n: number) {
  await db.updateTable('roi_folders').set({ n }).where('id', '=', id).execute();
}

/** Which of these ROIs any of these folders hold. */
export async function roisHeldBy(db: Kysely<Database>, folderIds: readonly number[], roiIds: readonly number[]) {
  const rows = await db
    .selectFrom('folder_rois')
    .select('roi_id')
    .distinct()
    .where('folder_id', 'in', folderIds)
    .where('roi_id', 'in', roiIds)
    .execute();
  return new Set(rows.map((r) => r.roi_id));
}

/** Whether any of these folders holds the ROI. */
export async function heldByAny(db: Kysely<Database>, roiId: number, folderIds: readonly number[]): Promise<boolean> {
  const held = await db
    .selectFrom('folder_rois')
    .select('roi_id')
    .where('roi_id', '=', roiId)
    .where('folder_id', 'in', folderIds)
    .executeTakeFirst();
  return held !== undefined;
}

/** Folders of one category holding any of the ROIs, and which of the ROIs they hold. */
export async function foldersHolding(db: Kysely<Database>, categoryId: number, roiIds: readonly number[]) {
  const folderIds = new Set<number>();
  const held = new Set<number>();
  for (const part of idChunks(roiIds)) {
    const rows = await db
      .selectFrom('folder_rois as fr')
      .innerJoin('roi_folders as f', 'f.id', 'fr.folder_id')
      .select(['fr.folder_id', 'fr.roi_id'])
      .where('f.category_id', '=', categoryId)
      .where('fr.roi_id', 'in', part)
      .execute();
    for (const r of rows) {
      folderIds.add(r.folder_id);
      held.add(r.roi_id);
    }
  }
  return { folderIds: [...folderIds], roiIds: held };
}
