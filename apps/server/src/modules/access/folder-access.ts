import { CATEGORY } from '@ipp/contracts';
import type { FolderRow } from '../identify/folders.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { isPlainUser, ownsTeamObject } from './access.ts';

/**
 * Folder permissions (docs/actions.md): who reads and who writes each category's folders. The team part is
 * access.ts's rule; the rest is by category (the Xcube library is read by all, a temporary class is its user's).
 */

/** Whether the caller may see a folder's ROIs. The Xcube library is global: everyone reads it (as example ROIs). */
export function canSeeFolder(actor: UserRow, folder: FolderRow): boolean {
  if (folder.category_id === CATEGORY.XCUBE) return true;
  if (folder.category_id === CATEGORY.TEMPORARY) return folder.user_id === actor.id;
  return ownsTeamObject(actor, folder.group_id);
}

/**
 * Whether a folder is, for this caller, one of the example ROIs (spec §4): the Xcube library as everyone but the
 * superadmin sees it. Example ROIs support no operations: every write naming such a folder is refused with
 * 'Operation not supported for Example ROIs'.
 */
export const isExampleFor = (actor: UserRow, folder: Pick<FolderRow, 'category_id'>) =>
  folder.category_id === CATEGORY.XCUBE && actor.role !== 'superadmin';

/**
 * Whether a category is, for this caller, the example ROIs: -6, or -1 (which they are answered as), asked by anyone
 * but the superadmin. For the superadmin both name the Xcube library they maintain (spec §6: "-6: superadmin only").
 */
export const isExampleCategory = (actor: UserRow, categoryId: number) =>
  (categoryId === CATEGORY.EXAMPLE || categoryId === CATEGORY.XCUBE) && actor.role !== 'superadmin';

/** Whether the caller may put ROIs in a folder, or create, rename and delete such folders (docs/actions.md). */
export function canWriteFolder(actor: UserRow, folder: Pick<FolderRow, 'category_id' | 'group_id' | 'user_id'>): boolean {
  const own = ownsTeamObject(actor, folder.group_id);
  switch (folder.category_id) {
    case CATEGORY.XCUBE:
      return actor.role === 'superadmin';
    case CATEGORY.TEAM:
    case CATEGORY.SITE_GALLERY:
      return own && !isPlainUser(actor);
    case CATEGORY.TEMPORARY:
      return folder.user_id === actor.id;
    case CATEGORY.FOLDERS:
      return own;
    default:
      return false;
  }
}

/**
 * Whether the caller may take ROIs out of a folder: the one rule behind every removal from a folder, whichever call
 * asks (save-move 53 in the folder's node, 43 and 33 in the galleries, POST /roi/operate-roi remove, POST
 * /folder/operate-folder remove): whoever may write the folder, except in the example ROIs, which support no operation.
 */
export const canRemoveFromFolder = (actor: UserRow, folder: Pick<FolderRow, 'category_id' | 'group_id' | 'user_id'>) =>
  !isExampleFor(actor, folder) && canWriteFolder(actor, folder);
