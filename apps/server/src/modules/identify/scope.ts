import { CATEGORY, LABEL_KINDS, MAX_ID, ResultCode, type LabelKind } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { canSeeFolder } from '../access/folder-access.ts';
import { visibleGroup } from '../access/access.ts';
import { folderNotFound } from '../access/not-found.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as folders from './folders.repository.ts';

/** Which ROIs a category (and node) stands for, before the list filters. */
export type Source =
  | { kind: 'stations'; ippIds: number[] | null }
  | { kind: 'folders'; folderIds: number[] }
  | { kind: 'favorite'; ippIds: number[] | null }
  | { kind: 'review'; ippIds: number[] | null; reviewed: boolean }
  | { kind: 'recycle'; ippIds: number[] | null };

/** What a node code narrows to besides the source: recognition group (0 ui, 1 ai, 2 hi) and class (0 = none). */
export interface NodeFilter {
  kind?: number;
  classKey?: number;
}

/** Node codes (opaque to the web): t:<group>[:c:<class>], s:<station>[:c:<class>], c:<class>, f:<folder>. */
export const codes = {
  group: (kind: LabelKind) => `t:${kind}`,
  groupClass: (kind: LabelKind, classKey: number) => `t:${kind}:c:${classKey}`,
  station: (ippId: number) => `s:${ippId}`,
  stationClass: (ippId: number, classKey: number) => `s:${ippId}:c:${classKey}`,
  cls: (classKey: number) => `c:${classKey}`,
  folder: (id: number) => `f:${id}`,
};

export interface ParsedCode {
  kind?: number;
  ippId?: number;
  classKey?: number;
  folderId?: number;
}

const badCode = () => new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'code', reasonKey: 'reason.format' }, 'code');

export function parseCode(code: string | undefined): ParsedCode {
  if (!code) return {};
  const parts = code.split(':');
  const out: ParsedCode = {};
  for (let i = 0; i < parts.length; i += 2) {
    const [tag, value] = [parts[i], parts[i + 1]];
    if (value === undefined) throw badCode();
    // Ids are 32-bit: a larger number names nothing, and PostgreSQL would fail the query on it (SQLite would not).
    const id = /^\d{1,10}$/.test(value) && Number(value) <= MAX_ID ? Number(value) : undefined;
    if (tag === 't' && Object.hasOwn(LABEL_KINDS, value)) out.kind = LABEL_KINDS[value as LabelKind];
    else if (id !== undefined && tag === 's') out.ippId = id;
    else if (id !== undefined && tag === 'c') out.classKey = id;
    else if (id !== undefined && tag === 'f') out.folderId = id;
    else throw badCode();
  }
  return out;
}

/** The category a folder lives in as the tree shows it (-6 is the read-only face of -1). */
export const folderCategoryOf = (categoryId: number) => (categoryId === CATEGORY.EXAMPLE ? CATEGORY.XCUBE : categoryId);

export const isFolderCategory = (categoryId: number) =>
  categoryId > 0 ||
  (
    [CATEGORY.XCUBE, CATEGORY.TEAM, CATEGORY.SITE_GALLERY, CATEGORY.TEMPORARY, CATEGORY.FOLDERS, CATEGORY.EXAMPLE] as number[]
  ).includes(categoryId);

/** A folder the caller may see, or 1002 (a folder of another team answers exactly like a missing one). */
export async function visibleFolder(db: Kysely<Database>, actor: UserRow, id: number, field?: string) {
  const folder = await folders.findFolder(db, id);
  if (!folder || !canSeeFolder(actor, folder)) throw folderNotFound(field);
  return folder;
}

/** The folders a category holds for the caller (the whole category's when no folder is named). */
export async function categoryFolders(
  db: Kysely<Database>,
  actor: UserRow,
  categoryId: number,
  opts: { ippId?: number; groupId?: number },
): Promise<folders.FolderRow[]> {
  if (categoryId > 0) return [await visibleFolder(db, actor, categoryId, 'category_id')];
  const team = visibleGroup(actor, opts.groupId);
  switch (folderCategoryOf(categoryId)) {
    case CATEGORY.XCUBE:
      return folders.listFolders(db, CATEGORY.XCUBE, { groupId: null });
    case CATEGORY.TEAM:
      return folders.listFolders(db, CATEGORY.TEAM, { groupId: team });
    case CATEGORY.SITE_GALLERY:
      return folders.listFolders(db, CATEGORY.SITE_GALLERY, { groupId: team, ippId: opts.ippId });
    case CATEGORY.TEMPORARY:
      return folders.listFolders(db, CATEGORY.TEMPORARY, { userId: actor.id });
    case CATEGORY.FOLDERS:
      return folders.listFolders(db, CATEGORY.FOLDERS, { groupId: team });
    default:
      return [];
  }
}
