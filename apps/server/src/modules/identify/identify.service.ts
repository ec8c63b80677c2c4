import {
  CATEGORY,
  ResultCode,
  type Actions,
  type AdjacentQuery,
  type Category,
  type ClassItem,
  type RoiItem,
  type RoiListQueryParsed,
  type RoiPage,
  type SortField,
  type TreeNode,
} from '@ipp/contracts';
import { AdjacentQuerySchema, MAX_ID, MAX_MATCHING, type MatchingIds } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { isPlainUser, ownsTeamObject, visibleGroup } from '../access/access.ts';
import { visibleStationTeamById } from '../access/stations.ts';
import { presentRoi } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { HOUR_MS, hourOf } from '../stats/rollups.repository.ts';
import { allowedCodes, describe } from './actions.ts';
import * as browse from './browse.repository.ts';
import { taxaOf } from '../taxa/taxa.service.ts';
import { classesVisibleTo, mayManageClass, ownerOf, viewerTeam } from '../classes/classes.ts';
import * as counts from './counts.repository.ts';
import * as folders from './folders.repository.ts';
import { categoryFolders, isFolderCategory, parseCode, visibleFolder, type Source } from './scope.ts';
import { parseTimeRange } from './time-range.ts';
import { buildTree, type TreeInput } from './tree.ts';
import { folderNotFound, roiNotFound } from '../access/not-found.ts';

/** A total is counted exactly up to this many ROIs; beyond it the answer says "at least". */
const COUNT_CAP = 100_000;

const REVIEW_STATUS = ['none', 'pending', 'approved', 'rejected'] as const;

export function presentItem(row: browse.RoiItemRow): RoiItem {
  return {
    ...presentRoi(row),
    status: row.status,
    collect_status: row.collect_status,
    is_demo_image: row.is_demo_image,
    invalid: row.invalid === 1,
    index: row.id,
    attention: row.attention === 1,
    review_status: REVIEW_STATUS[row.review_status] ?? 'none',
    deleted_at: row.deleted_at === null ? null : Number(row.deleted_at),
    ai_top: aiTop(row.ai_top),
  };
}

/** The stored model's best classes ([[class_id, p], …] JSON) as the thumbnail shows them; none without a model label. */
function aiTop(json: string | null): RoiItem['ai_top'] {
  if (json === null) return [];
  try {
    const top = JSON.parse(json) as [number, number][];
    return top.slice(0, 3).map(([classId, p]) => ({ class_id: classId, p }));
  } catch {
    return [];
  }
}

const encodeCursor = (at: browse.Keyset) => Buffer.from(JSON.stringify(at)).toString('base64url');

/** The smallest 32-bit integer: the range of the integer columns (`size_px`, ids) on PostgreSQL. */
const MIN_INT32 = -2_147_483_648;
const isInt32 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= MIN_INT32 && (v as number) <= MAX_ID;
/**
 * Whether a value can stand where the sort column is compared: PostgreSQL types the cursor's values after the
 * column (integer, bigint, double precision) and fails the whole query on a fraction or an out-of-range number,
 * where SQLite compares anything. Both therefore accept only what the column can hold.
 */
const fitsSortColumn: Record<SortField, (v: unknown) => boolean> = {
  Roi_time: (v) => Number.isSafeInteger(v),
  size: isInt32,
  id: isInt32,
  // Doubles: anything finite, but no subnormal (PostgreSQL's float8 input refuses some as out of range).
  confidence: (v) => typeof v === 'number' && Number.isFinite(v) && (v === 0 || Math.abs(v) >= 1e-300),
};

/** A cursor of this sort order, or 1002 on `after`: a cursor the server did not write never reaches the database. */
function decodeCursor(cursor: string, field: SortField): browse.Keyset {
  try {
    const at: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(at) && at.length === 2 && fitsSortColumn[field](at[0]) && isInt32(at[1])) return at as browse.Keyset;
  } catch {
    // fall through to the parameter error
  }
  throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'after', reasonKey: 'reason.format' }, 'after');
}

/** Non-superadmins asking for the Xcube library get the example ROIs (spec §4). */
export const effectiveCategory = (actor: UserRow, categoryId: number) =>
  categoryId === CATEGORY.XCUBE && actor.role !== 'superadmin' ? CATEGORY.EXAMPLE : categoryId;

/** The identify workspace's reads: categories, the class tree, the ROI list, neighbours and the allowed actions. */
export class IdentifyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async categories(actor: UserRow, groupId?: number): Promise<Category[]> {
    const k = this.db.kysely;
    const team = visibleGroup(actor, groupId);
    const ids = await this.teamStations(actor, groupId);
    const total = (rows: { n: number }[]) => rows.reduce((a, r) => a + r.n, 0);
    const folderTotal = async (category: number) => total(await categoryFolders(k, actor, category, { groupId }));
    const admin = !isPlainUser(actor);
    const stationTotal = total(await counts.stationClassCounts(k, ids));
    const list: Category[] = [
      {
        id: CATEGORY.SITE,
        key: 'site',
        count: stationTotal,
        can_create: admin,
      },
      { id: CATEGORY.ALL, key: 'all', count: stationTotal, can_create: false },
      actor.role === 'superadmin'
        ? { id: CATEGORY.XCUBE, key: 'xcube', count: await folderTotal(CATEGORY.XCUBE), can_create: true }
        : { id: CATEGORY.EXAMPLE, key: 'example', count: await folderTotal(CATEGORY.XCUBE), can_create: false },
      { id: CATEGORY.TEAM, key: 'team', count: await folderTotal(CATEGORY.TEAM), can_create: admin && team !== undefined },
      { id: CATEGORY.SITE_GALLERY, key: 'site_gallery', count: await folderTotal(CATEGORY.SITE_GALLERY), can_create: admin },
      { id: CATEGORY.FOLDERS, key: 'folders', count: await folderTotal(CATEGORY.FOLDERS), can_create: team !== undefined },
      { id: CATEGORY.TEMPORARY, key: 'temporary', count: await folderTotal(CATEGORY.TEMPORARY), can_create: true },
      {
        id: CATEGORY.FAVORITE,
        key: 'favorite',
        count: total(await counts.subsetClassCounts(k, 'favorite', ids)),
        can_create: false,
      },
    ];
    if (admin) {
      list.push(
        { id: CATEGORY.REVIEW, key: 'review', count: total(await counts.subsetClassCounts(k, 'review', ids)), can_create: false },
        {
          id: CATEGORY.RECYCLE,
          key: 'recycle',
          count: total(await counts.subsetClassCounts(k, 'recycle', ids)),
          can_create: false,
        },
      );
    }
    return list;
  }

  async tree(
    actor: UserRow,
    q: { category_id: number; ipp_id?: number; group_id?: number; show_empty?: boolean; reviewed_type?: number },
  ): Promise<TreeNode[]> {
    const k = this.db.kysely;
    const category = effectiveCategory(actor, q.category_id);
    const [classes, toolbar] = await Promise.all([classesVisibleTo(k, actor, q.group_id), folders.listToolbar(k, actor.id)]);
    const input: TreeInput = {
      category,
      classes,
      showEmpty: q.show_empty ?? false,
      toolbar: new Set(toolbar.filter((t) => t.category_id === q.category_id).map((t) => t.code)),
    };
    if (isFolderCategory(category)) {
      const list = await categoryFolders(k, actor, category, { ippId: q.ipp_id, groupId: q.group_id });
      const demoFolders =
        category === CATEGORY.TEAM
          ? await folders.foldersWithDemoImages(
              k,
              list.map((f) => f.id),
            )
          : undefined;
      return buildTree({ ...input, folders: list, demoFolders });
    }
    const ids = await this.teamStations(actor, q.group_id);
    switch (category) {
      case CATEGORY.SITE: {
        const station = await this.station(actor, q.ipp_id, ids);
        return buildTree({ ...input, groupCounts: await counts.groupClassCounts(k, [station]) });
      }
      case CATEGORY.ALL:
        return buildTree({
          ...input,
          stations: await counts.stationsOfTeam(k, visibleGroup(actor, q.group_id)),
          stationCounts: await counts.stationClassCounts(k, ids),
        });
      case CATEGORY.FAVORITE:
      case CATEGORY.REVIEW:
      case CATEGORY.RECYCLE: {
        // The review queue's tree counts what its list shows: the waiting, or the reviewed with reviewed_type 1.
        const review = q.reviewed_type === 1 ? 'reviewed' : 'review';
        const subset = category === CATEGORY.FAVORITE ? 'favorite' : category === CATEGORY.REVIEW ? review : 'recycle';
        return buildTree({ ...input, subsetCounts: await counts.subsetClassCounts(k, subset, ids) });
      }
      default:
        throw unknownCategory();
    }
  }

  async list(actor: UserRow, q: RoiListQueryParsed): Promise<{ page: RoiPage; count: number }> {
    const filter = await this.filterOf(actor, q);
    const sort = { field: q.diysort, dir: q.sorttype };
    const after = q.after ? decodeCursor(q.after, sort.field) : undefined;
    const rows = await browse.page(this.db.kysely, filter, sort, q.limit + 1, { after, offset: (q.page - 1) * q.limit });
    const more = rows.length > q.limit;
    const items = rows.slice(0, q.limit);
    const last = items.at(-1);
    // A page reached by cursor is not counted again: the first page said how many (and counting costs more than
    // the page itself on a large station).
    const total = after ? -1 : await this.total(filter);
    return {
      page: {
        items: items.map(presentItem),
        next: more && last ? encodeCursor([browse.sortValueOf(last, sort.field), last.id]) : null,
        count_capped: total > COUNT_CAP,
      },
      count: Math.min(total, COUNT_CAP),
    };
  }

  /** GET /roi/matching-ids: the ids of every ROI the query matches, in its order, at most MAX_MATCHING. */
  async matchingIds(actor: UserRow, q: RoiListQueryParsed): Promise<MatchingIds> {
    const filter = await this.filterOf(actor, q);
    const ids = await browse.matchingIds(this.db.kysely, filter, { field: q.diysort, dir: q.sorttype }, MAX_MATCHING + 1);
    return { ids: ids.slice(0, MAX_MATCHING), capped: ids.length > MAX_MATCHING };
  }

  /**
   * How many ROIs a filter matches: from the maintained counts when it is a station / group / class filter (the
   * tree's own numbers, exact at any size), else counted up to COUNT_CAP + 1.
   */
  private async total(f: browse.BrowseFilter): Promise<number> {
    const k = this.db.kysely;
    const timed = f.start !== undefined || f.end !== undefined;
    // Filters the maintained counts do not keep: size, the capture flags, confidence and who labelled when.
    const sized = [
      f.sizeMin,
      f.sizeMax,
      f.esdMinUm,
      f.esdMaxUm,
      f.flag,
      f.confMin,
      f.confMax,
      f.labelledBy,
      f.labelledStart,
      f.labelledEnd,
      f.feature,
    ].some((v) => v !== undefined);
    if (!sized && f.source.kind === 'stations') {
      const ippIds = f.ippId !== undefined ? [f.ippId] : f.source.ippIds;
      if (!timed) return counts.maintainedTotal(k, ippIds, f.kind, f.classKey);
      if (f.kind === undefined) {
        const counted = await this.timedTotal(f, ippIds);
        if (counted !== undefined) return counted;
      }
    }
    if (
      !timed &&
      !sized &&
      f.source.kind === 'folders' &&
      f.source.folderIds.length === 1 &&
      f.kind === undefined &&
      f.classKey === undefined
    ) {
      const folder = await folders.findFolder(k, f.source.folderIds[0]!);
      return folder ? Number(folder.n) : 0;
    }
    return browse.countUpTo(k, f, COUNT_CAP + 1);
  }

  /**
   * A station (and class) filter over a time range: the whole hours inside it from the hour rollups, the partial
   * hours at its ends counted from their rows (at most an hour of each station's ROIs). Exact, where counting rows
   * would cost a scan of the range (300 ms for a month of a 10M-ROI fleet). Undefined when the range holds no whole
   * hour: then its rows are few enough to count.
   */
  private async timedTotal(f: browse.BrowseFilter, ippIds: readonly number[] | null): Promise<number | undefined> {
    const k = this.db.kysely;
    const from = f.start === undefined ? undefined : Math.ceil(f.start / HOUR_MS) * HOUR_MS;
    const to = f.end === undefined ? undefined : hourOf(f.end + 1);
    if (from !== undefined && to !== undefined && from >= to) return undefined;
    const whole = await counts.hourRollupTotal(k, ippIds, { from, to }, f.classKey);
    const head = from !== undefined && f.start! < from ? await browse.countUpTo(k, { ...f, end: from - 1 }, COUNT_CAP + 1) : 0;
    const tail = to !== undefined && to <= f.end! ? await browse.countUpTo(k, { ...f, start: to }, COUNT_CAP + 1) : 0;
    return whole + head + tail;
  }

  /** The ROIs of one folder, by id or code (GET /folder/get-folder-by-roi-index, /roi/get-roi-by-code). */
  async folderRois(
    actor: UserRow,
    q: {
      roi_index_id?: number;
      roi_index_code?: string;
      limit: number;
      page: number;
      sorttype: 'asc' | 'desc';
      diysort: SortField;
    },
  ) {
    const k = this.db.kysely;
    const found = q.roi_index_code !== undefined ? await folders.findFolderByAnyCode(k, q.roi_index_code) : undefined;
    const id = q.roi_index_id ?? found?.id;
    if (id === undefined) throw folderNotFound('roi_index_code');
    const folder = await visibleFolder(k, actor, id, q.roi_index_id === undefined ? 'roi_index_code' : 'roi_index_id');
    return this.list(actor, { ...q, category_id: folder.category_id, code: `f:${folder.id}`, tz: 0 });
  }

  async adjacent(actor: UserRow, query: AdjacentQuery) {
    const q = AdjacentQuerySchema.parse(query);
    const filter = await this.filterOf(actor, { ...q, limit: 1, page: 1 });
    const row = await browse.findItem(this.db.kysely, q.roi_id);
    // An ROI the caller may not see answers exactly like a missing one (no existence oracle across teams).
    if (!row || !(await this.canSeeRoi(actor, row, filter))) throw roiNotFound();
    return browse.adjacent(this.db.kysely, filter, { field: q.diysort, dir: q.sorttype }, [
      browse.sortValueOf(row, q.diysort),
      row.id,
    ]);
  }

  /**
   * Whether the caller may see an ROI here: their team's (any team's for the superadmin), or one held by a folder of
   * the list they are in (the Xcube library, which everyone reads as example ROIs, holds other teams' ROIs).
   */
  private async canSeeRoi(actor: UserRow, row: { id: number; group_id: number }, f: browse.BrowseFilter) {
    if (ownsTeamObject(actor, row.group_id)) return true;
    if (f.source.kind !== 'folders' || f.source.folderIds.length === 0) return false;
    return folders.heldByAny(this.db.kysely, row.id, f.source.folderIds);
  }

  /** The codes the caller may use; a positive category id is one folder, answered by the rules of its own category. */
  async actions(actor: UserRow, categoryId: number, reviewedType?: number): Promise<Actions> {
    if (actor.is_demo === 1) return { actions: [], reason: 'role' };
    const folder = categoryId > 0 ? await visibleFolder(this.db.kysely, actor, categoryId, 'category_id') : undefined;
    const category = effectiveCategory(actor, folder ? folder.category_id : categoryId);
    const codes = allowedCodes(actor.role, category, reviewedType);
    if (codes.length > 0) return { actions: codes.map(describe), reason: null };
    return { actions: [], reason: category === CATEGORY.EXAMPLE ? 'example' : isPlainUser(actor) ? 'role' : 'none' };
  }

  /** GET /tool/sys-init: the classes the caller may see (plain users lose those their team hides; classes.ts). */
  async classes(actor: UserRow, q: { sort: 'title' | '-title'; group_id?: number }): Promise<ClassItem[]> {
    const { sort } = q;
    const rows = await classesVisibleTo(this.db.kysely, actor, q.group_id);
    const taxa = await taxaOf(this.db, await viewerTeam(this.db.kysely, actor, q.group_id), rows);
    const items = rows.map((c) => ({
      id: c.id,
      title: c.name,
      label_index: c.label_index,
      system: c.system === 1,
      visible: !c.hidden,
      attention: c.attention === 1,
      owner: ownerOf(c),
      editable: mayManageClass(actor, c),
      taxon: taxa.get(c.id) ?? null,
    }));
    items.sort((a, b) => a.title.localeCompare(b.title));
    return sort === '-title' ? items.reverse() : items;
  }

  /** The list filter of a query: the category's source, the node's narrowing, and the §3 query fields. */
  async filterOf(actor: UserRow, q: RoiListQueryParsed): Promise<browse.BrowseFilter> {
    const category = effectiveCategory(actor, q.category_id);
    const code = parseCode(q.code);
    const time = parseTimeRange(q, this.clock());
    const sizeMin = q.coordRange_0;
    const sizeMax = q.coordRange_1 ?? q.coordRange_0;
    const kind = code.kind ?? (q.dataIndex === undefined ? undefined : { ui: 0, ai: 1, hi: 2 }[q.dataIndex]);
    return {
      source: await this.sourceOf(actor, category, q, code.folderId),
      kind,
      classKey: code.classKey ?? q.class_id,
      ippId: code.ippId,
      start: time?.start,
      end: time?.end,
      sizeMin,
      sizeMax,
      esdMinUm: q.esd_min_um,
      esdMaxUm: q.esd_max_um,
      flag: q.flag,
      confMin: q.conf_min,
      confMax: q.conf_max,
      labelledBy: q.labelled_by,
      labelledStart: q.labelled_s,
      labelledEnd: q.labelled_e,
      feature:
        q.feature && (q.feature_min !== undefined || q.feature_max !== undefined)
          ? { name: q.feature, min: q.feature_min, max: q.feature_max, dialect: this.db.dialect }
          : undefined,
    };
  }

  private async sourceOf(actor: UserRow, category: number, q: RoiListQueryParsed, folderId?: number): Promise<Source> {
    const k = this.db.kysely;
    if (isFolderCategory(category)) {
      if (folderId !== undefined) {
        const folder = await visibleFolder(k, actor, folderId, 'code');
        return { kind: 'folders', folderIds: [folder.id] };
      }
      const list = await categoryFolders(k, actor, category, { ippId: q.ipp_id, groupId: q.group_id });
      return { kind: 'folders', folderIds: list.map((f) => f.id) };
    }
    const ids = await this.teamStations(actor, q.group_id);
    switch (category) {
      case CATEGORY.SITE:
        return { kind: 'stations', ippIds: [await this.station(actor, q.ipp_id, ids)] };
      case CATEGORY.ALL:
        return { kind: 'stations', ippIds: q.ipp_id === undefined ? ids : [await this.station(actor, q.ipp_id, ids)] };
      case CATEGORY.FAVORITE:
        return { kind: 'favorite', ippIds: ids };
      case CATEGORY.REVIEW:
        return { kind: 'review', ippIds: ids, reviewed: q.reviewed_type === 1 };
      case CATEGORY.RECYCLE:
        return { kind: 'recycle', ippIds: ids };
      default:
        throw unknownCategory();
    }
  }

  /** The caller's team's station ids; null for a superadmin looking at every team. */
  async teamStations(actor: UserRow, groupId?: number): Promise<number[] | null> {
    const team = visibleGroup(actor, groupId);
    if (team === undefined) return null;
    return (await counts.stationsOfTeam(this.db.kysely, team)).map((s) => s.id);
  }

  private async station(actor: UserRow, ippId: number | undefined, teamIds: number[] | null): Promise<number> {
    if (ippId === undefined)
      throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'ipp_id', reasonKey: 'reason.required' }, 'ipp_id');
    if (teamIds !== null && !teamIds.includes(ippId)) throw new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, 'ipp_id');
    // No team list: the superadmin, who sees every station that exists.
    if (teamIds === null) await visibleStationTeamById(this.db.kysely, actor, ippId);
    return ippId;
  }
}

const unknownCategory = () =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'category_id', reasonKey: 'reason.invalid' }, 'category_id');
