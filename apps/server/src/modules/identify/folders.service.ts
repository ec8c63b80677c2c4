import {
  ACTION,
  CATEGORY,
  ResultCode,
  type BulkActionBody,
  type Created,
  type NewFolderBody,
  type OperateFolderBody,
  type OperateResult,
  type ToolbarItem,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { idChunks } from '../../db/query-helpers.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { ownedOnly, requireOwned, visibleGroup } from '../access/access.ts';
import { canWriteFolder, isExampleCategory, isExampleFor } from '../access/folder-access.ts';
import { visibleStationTeamById } from '../access/stations.ts';
import { findTeamById, lockTeam } from '../teams/teams.repository.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { BulkService } from './bulk.service.ts';
import { checkTitle } from './bulk.service.ts';
import { assertMayManageClass, assertTeamClassRoom, hiddenFromUser } from '../classes/classes.ts';
import * as classesRepo from '../classes/classes.repository.ts';
import * as folders from './folders.repository.ts';
import { UNCLASSIFIED } from './tree.ts';
import { codes, folderNotFound, visibleFolder } from './scope.ts';

type Trx = Kysely<Database>;

const forbidden = () => new AppError(ResultCode.FORBIDDEN, 'forbidden');
const notSupported = () => new AppError(ResultCode.FORBIDDEN, 'notSupported');
const exampleReadOnly = () => new AppError(ResultCode.FORBIDDEN, 'exampleReadOnly');
const demoImages = () => new AppError(ResultCode.FORBIDDEN, 'demoImages');
const classNotFound = (field = 'class_id') => new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, field);
const oneOf = () =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'roi_index_id', reasonKey: 'reason.required' }, 'roi_index_id');
const isAdmin = (actor: UserRow) => actor.role !== 'user';

/**
 * Folders (roi-index) and HI classes as things: create, rename, delete, attention and visibility, toolbar
 * shortcuts, whole-folder copy/move/remove, and the recycle bin's restore and purge. ROI selections go through
 * BulkService so the action matrix is checked in one place.
 */
export class FoldersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rois: RoisService,
    private readonly bulk: BulkService,
  ) {}

  /** POST /roi-index/save: a folder in a gallery or folder category, or an HI class under site images (-100). */
  async save(actor: UserRow, body: NewFolderBody): Promise<Created> {
    const title = checkTitle(body.title);
    // Spec §7 "ipp_id becomes -6 when category_id is -6": -6 names the library the example ROIs show, which has no
    // station. The superadmin maintains it, so their new class there is a folder of the Xcube library (-1); for
    // everyone else example ROIs support no operations (spec §4).
    if (isExampleCategory(actor, body.category_id)) throw exampleReadOnly();
    if (body.category_id === CATEGORY.EXAMPLE) body = { ...body, category_id: CATEGORY.XCUBE, ipp_id: undefined };
    if (body.category_id === CATEGORY.SITE) {
      // Classes are global, but the request is made from a station's site images: a station the caller cannot see is
      // refused as a missing one (the access-control matrix found another team's station accepted).
      if (body.ipp_id !== undefined) await visibleStationTeamById(this.db.kysely, actor, body.ipp_id);
      return this.newClass(actor, title);
    }
    const scope = await this.scopeFor(this.db.kysely, actor, body);
    if (!canWriteFolder(actor, scope)) throw forbidden();
    return this.db.kysely.transaction().execute(async (trx) => {
      if (await folders.findFolderByTitle(trx, scope, title))
        throw new AppError(ResultCode.BAD_PARAM, 'titleTaken', { title }, 'title');
      const folder = await folders.insertFolder(trx, scope, title, this.clock());
      return { roi_index_id: folder.id, class_id: null, title, code: codes.folder(folder.id), roi_index_code: folder.code };
    });
  }

  /** POST /roi-index/rename: a folder (its writers) or a non-system HI class (administrators). */
  async rename(actor: UserRow, body: { roi_index_id?: number; class_id?: number; title: string }): Promise<void> {
    const title = checkTitle(body.title);
    if (body.roi_index_id !== undefined) {
      const folder = await this.writableFolder(actor, body.roi_index_id);
      const scope = {
        category_id: folder.category_id,
        group_id: folder.group_id,
        ipp_id: folder.ipp_id,
        user_id: folder.user_id,
      };
      await this.db.kysely.transaction().execute(async (trx) => {
        const same = await folders.findFolderByTitle(trx, scope, title);
        if (same && same.id !== folder.id) throw new AppError(ResultCode.BAD_PARAM, 'titleTaken', { title }, 'title');
        await folders.updateFolder(trx, folder.id, { title }, this.clock());
      });
      return;
    }
    if (body.class_id === undefined) throw oneOf();
    const cls = await this.editableClass(actor, body.class_id);
    await this.db.kysely.transaction().execute(async (trx) => {
      const labelIndex = labelIndexOf(title);
      if (labelIndex !== cls.label_index)
        throw new AppError(ResultCode.BAD_PARAM, 'labelChanged', { label: cls.label_index ?? '' }, 'title');
      await this.assertNotUsedByOthers(trx, actor, cls);
      await assertClassFree(trx, title, null, cls.id);
      await classesRepo.renameClass(trx, cls.id, title);
    });
  }

  /** POST /roi-index/delete-folder: a folder (its ROIs stay wherever else they are) or an unused HI class. */
  async remove(actor: UserRow, body: { roi_index_id?: number; class_id?: number }): Promise<void> {
    if (body.roi_index_id !== undefined) {
      const folder = await this.writableFolder(actor, body.roi_index_id);
      await this.db.kysely.transaction().execute(async (trx) => {
        await refuseDemoFolders(trx, [folder]);
        await folders.deleteFolders(trx, [folder.id]);
      });
      return;
    }
    if (body.class_id === undefined) throw oneOf();
    const cls = await this.editableClass(actor, body.class_id);
    await this.db.kysely.transaction().execute(async (trx) => {
      await this.assertNotUsedByOthers(trx, actor, cls);
      const used = await roisRepo.countRoisOfClass(trx, cls.id);
      if (used > 0) throw new AppError(ResultCode.BAD_PARAM, 'classInUse', { title: cls.name, count: used }, 'class_id');
      await classesRepo.deleteClass(trx, cls.id);
    });
  }

  /** POST /roi-index/batch-delete: several folders, all or none. */
  async batchDelete(actor: UserRow, ids: readonly number[]): Promise<number> {
    const unique = [...new Set(ids)];
    const writable: { id: number; category_id: number }[] = [];
    for (const id of unique) writable.push(await this.writableFolder(actor, id, 'ids'));
    await this.db.kysely.transaction().execute(async (trx) => {
      await refuseDemoFolders(trx, writable);
      await folders.deleteFolders(trx, unique);
    });
    return unique.length;
  }

  /** POST /roi-index/change-status: attention (highlight) and visibility of a folder or a class. */
  async changeStatus(
    actor: UserRow,
    body: { roi_index_id?: number; class_id?: number; attention?: boolean; status?: number; group_id?: number },
  ) {
    const values = {
      ...(body.attention === undefined ? {} : { attention: body.attention ? 1 : 0 }),
      ...(body.status === undefined ? {} : { status: body.status }),
    };
    if (body.roi_index_id !== undefined) {
      const folder = await this.writableFolder(actor, body.roi_index_id);
      await folders.updateFolder(this.db.kysely, folder.id, values, this.clock());
      return;
    }
    if (body.class_id === undefined) throw oneOf();
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    const k = this.db.kysely;
    const cls = await findClass(k, body.class_id);
    // Highlighting is the owner's (it shows in every team's lists); visibility is each team's own.
    if (values.attention !== undefined) assertMayManageClass(actor, cls);
    const team = values.status === undefined ? undefined : await this.visibilityTeam(actor, body.group_id);
    await k.transaction().execute(async (trx) => {
      if (values.attention !== undefined) await classesRepo.setClassAttention(trx, cls.id, values.attention);
      if (team !== undefined) await classesRepo.setHidden(trx, cls.id, team, values.status === 0);
    });
  }

  /** The team whose plain users a class is shown to or hidden from: one's own; the superadmin names one. */
  private async visibilityTeam(actor: UserRow, requested?: number): Promise<number> {
    const team = visibleGroup(actor, requested);
    if (team === undefined || team < 0) throw new AppError(ResultCode.BAD_PARAM, 'teamRequired', {}, 'group_id');
    if (actor.role === 'superadmin' && !(await findTeamById(this.db.kysely, team)))
      throw new AppError(ResultCode.BAD_PARAM, 'teamNotFound', {}, 'group_id');
    return team;
  }

  /** A team's class that other teams' images carry is theirs too: only the superadmin renames or deletes it. */
  private async assertNotUsedByOthers(trx: Trx, actor: UserRow, cls: { id: number; group_id: number | null }) {
    if (actor.role === 'superadmin' || cls.group_id === null) return;
    if (await classesRepo.usedByOtherTeams(trx, cls.id, cls.group_id))
      throw new AppError(ResultCode.FORBIDDEN, 'classUsedByOthers', {}, 'class_id');
  }

  toolbar(actor: UserRow): Promise<ToolbarItem[]> {
    return folders.listToolbar(this.db.kysely, actor.id);
  }

  /** POST /roi-index/add-tool-bar: a shortcut to a tree node, per user (adding one twice keeps one). */
  async addToolbar(actor: UserRow, item: { category_id: number; code: string; title: string }): Promise<ToolbarItem> {
    // Example ROIs support no operations (spec §4), a shortcut to one of their classes included.
    if (isExampleCategory(actor, item.category_id)) throw exampleReadOnly();
    const folder = await folders.findFolderByAnyCode(this.db.kysely, item.code);
    if (folder && isExampleFor(actor, folder)) throw exampleReadOnly();
    // Insert-or-keep in one statement: a select first let two calls at once both insert (the second a 500).
    const k = this.db.kysely;
    await folders.insertToolbarItem(k, actor.id, item, this.clock());
    return folders.findToolbarItem(k, actor.id, item.category_id, item.code);
  }

  async deleteToolbar(actor: UserRow, id: number): Promise<void> {
    const gone = await folders.deleteToolbarItem(this.db.kysely, actor.id, id);
    if (gone === 0) throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'id', reasonKey: 'reason.invalid' }, 'id');
  }

  /**
   * POST /folder/operate-folder: a whole class. copy/move with `category_id` takes the class itself (a folder of the
   * same title there, made or reused); with `roi_index_code` only its images, into that folder. remove deletes the
   * folder (its ROIs stay elsewhere). to_hi labels its images with the HI class of the same title and takes them
   * out of the folder (the folder stays, empty).
   */
  async operateFolder(actor: UserRow, body: OperateFolderBody): Promise<OperateResult> {
    if (actor.is_demo === 1) throw forbidden();
    const source = await visibleFolder(this.db.kysely, actor, body.roi_index_id);
    if (body.type === 'remove') {
      await this.remove(actor, { roi_index_id: source.id });
      return { affected: source.n, roi_index_id: null };
    }
    if (body.type !== 'copy' && !canWriteFolder(actor, source)) throw forbidden();
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = await folders.memberIds(trx, source.id);
      const rows = await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres');
      const live = new Set(rows.filter((r) => r.deleted_at === null).map((r) => r.id));
      // Spec §6: demo images in the team gallery support no operation, by the class as by the image (bulk.service).
      if (source.category_id === CATEGORY.TEAM && rows.some((r) => r.is_demo_image === 1 && r.deleted_at === null)) {
        throw demoImages();
      }
      const now = this.clock();
      if (body.type === 'to_hi') {
        const cls = await classesRepo.findClassIdByName(trx, source.title);
        if (!cls) throw new AppError(ResultCode.BAD_PARAM, 'noHiClass', { class: source.title }, 'roi_index_id');
        const own = ownedOnly(actor, rows);
        const affected = await this.rois.relabel(trx, own, (r) => ({ classId: cls.id, labelIndex: r.roi_labelindex, hi: 1 }), {
          userId: actor.id,
          action: 'to-hi',
        });
        await folders.removeMembers(
          trx,
          [source.id],
          own.map((r) => r.id),
          live,
        );
        return { affected, roi_index_id: null };
      }
      const target = await this.operateTarget(trx, actor, body, source);
      if (target.id === source.id) throw notSupported();
      const mismatch = rows.some(
        (r) =>
          (target.group_id !== null && r.group_id !== target.group_id) ||
          (target.category_id === CATEGORY.SITE_GALLERY && r.ipp_id !== target.ipp_id),
      );
      if (mismatch) throw new AppError(ResultCode.BAD_PARAM, 'targetMismatch', {}, 'roi_index_code');
      const affected = await folders.addMembers(trx, target.id, ids, live, now);
      if (body.type === 'move') {
        if (body.roi_index_code === undefined) await folders.deleteFolders(trx, [source.id]);
        else await folders.removeMembers(trx, [source.id], ids, live);
      }
      return { affected, roi_index_id: target.id };
    });
  }

  /** POST /folder/operator-site-folder: an IPP gallery folder removed, or copied (class and images) to the team library. */
  async operateSiteFolder(actor: UserRow, body: { type: 'copy' | 'remove'; roi_index_id: number }): Promise<OperateResult> {
    const folder = await visibleFolder(this.db.kysely, actor, body.roi_index_id);
    if (folder.category_id !== CATEGORY.SITE_GALLERY) throw folderNotFound();
    return this.operateFolder(actor, {
      type: body.type,
      roi_index_id: folder.id,
      category_id: body.type === 'copy' ? CATEGORY.TEAM : undefined,
    });
  }

  /** POST /roi-group/re-bin: restore (re) or purge (delete) ROIs of the recycle bin; administrators. */
  async reBin(actor: UserRow, action: 're' | 'delete', roiIds: readonly number[]): Promise<number> {
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = [...new Set(roiIds)];
      const rows = await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres');
      const mine = ownedOnly(actor, rows).filter((r) => r.deleted_at !== null);
      if (mine.length !== ids.length) throw new AppError(ResultCode.BAD_PARAM, 'roiNotFound', {}, 'roi_ids');
      return action === 're' ? this.rois.restore(trx, mine) : this.rois.purge(trx, mine);
    });
  }

  /** POST /roi-group/delete: empty the recycle bin (-8, administrators) or the caller's temporary classes (-5). */
  async groupDelete(actor: UserRow, categoryId: number, groupId?: number): Promise<number> {
    if (actor.is_demo === 1) throw forbidden();
    if (categoryId === CATEGORY.TEMPORARY) return this.deleteTemporary(actor);
    if (categoryId !== CATEGORY.RECYCLE) throw notSupported();
    if (!isAdmin(actor)) throw forbidden();
    const team = visibleGroup(actor, groupId);
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = await roisRepo.recycledRoiIds(trx, team);
      return this.rois.purge(trx, await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres'));
    });
  }

  /** POST /folder/delete-temporary-folder: one of the caller's temporary classes, or all of them. */
  async deleteTemporary(actor: UserRow, folderId?: number): Promise<number> {
    const k = this.db.kysely;
    const mine = await folders.listFolders(k, CATEGORY.TEMPORARY, { userId: actor.id });
    const ids = folderId === undefined ? mine.map((f) => f.id) : mine.filter((f) => f.id === folderId).map((f) => f.id);
    if (folderId !== undefined && ids.length === 0) throw folderNotFound();
    await k.transaction().execute((trx) => folders.deleteFolders(trx, ids));
    return ids.length;
  }

  /** POST /roi-index/rsync: recounts the live members of the caller's team's folders (administrators). */
  async resync(actor: UserRow, groupId?: number): Promise<number> {
    if (!isAdmin(actor)) throw forbidden();
    const team = visibleGroup(actor, groupId);
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = await folders.folderIds(trx, team);
      for (const part of idChunks(ids)) {
        const byId = await folders.liveMemberCounts(trx, part);
        for (const id of part) await folders.setFolderCount(trx, id, byId.get(id) ?? 0);
      }
      return ids.length;
    });
  }

  /** POST /roi/operate-roi: copy/move ROIs into the folder with that code, or remove them from it (codes 51/52/53). */
  async operateRoi(
    actor: UserRow,
    body: { type: 'copy' | 'move' | 'remove'; roi_index_code: string; roi_ids: number[]; category_id: number; code?: string },
  ): Promise<OperateResult> {
    const folder = await folders.findFolderByAnyCode(this.db.kysely, body.roi_index_code);
    if (!folder) throw folderNotFound('roi_index_code');
    const bulk: BulkActionBody =
      body.type === 'remove'
        ? { type: ACTION.REMOVE_FROM_FOLDER, category_id: body.category_id, code: codes.folder(folder.id), roi_ids: body.roi_ids }
        : {
            type: body.type === 'copy' ? ACTION.COPY_TO_FOLDER : ACTION.MOVE_TO_FOLDER,
            category_id: body.category_id,
            code: body.code,
            roi_ids: body.roi_ids,
            target_id: folder.id,
          };
    const result = await this.bulk.run(actor, bulk);
    return { affected: result.affected, roi_index_id: folder.id };
  }

  /** POST /roi/delete: ROIs to the recycle bin (code 2), or with a folder only out of that folder (code 53). */
  async deleteRois(actor: UserRow, roiIds: number[], folderId?: number) {
    if (folderId === undefined) return this.bulk.run(actor, { type: ACTION.DELETE, category_id: CATEGORY.ALL, roi_ids: roiIds });
    const folder = await visibleFolder(this.db.kysely, actor, folderId);
    return this.bulk.run(actor, {
      type: ACTION.REMOVE_FROM_FOLDER,
      category_id: folder.category_id,
      code: codes.folder(folder.id),
      roi_ids: roiIds,
    });
  }

  /** GET /roi/set-roi-label-index: a human label by label index; 0 returns the ROI to its AI label. */
  async setLabelIndex(actor: UserRow, roiId: number, labelIndex: number) {
    if (actor.is_demo === 1) throw forbidden();
    return this.db.kysely.transaction().execute(async (trx) => {
      const rows = await roisRepo.findRoisCore(trx, [roiId], this.db.dialect === 'postgres');
      const live = rows[0]?.deleted_at === null ? rows[0] : undefined;
      const roi = requireOwned(actor, live, () => new AppError(ResultCode.BAD_PARAM, 'roiNotFound', {}, 'roi_id'));
      if (labelIndex === 0) {
        const ai = await roisRepo.classIdForLabel(trx, roi.roi_labelindex);
        await this.rois.relabel(
          trx,
          rows,
          (r) => ({ classId: r.roi_labelindex === 0 ? null : (ai?.id ?? null), labelIndex: r.roi_labelindex, hi: 0 }),
          { userId: actor.id, action: 'set-label' },
        );
        return { class_id: roi.roi_labelindex === 0 ? null : (ai?.id ?? null), hi: 0 };
      }
      const cls = await roisRepo.classIdForLabel(trx, labelIndex);
      // A class the user's team hides is, for that user, no class (issue 20).
      if (!cls || (await hiddenFromUser(trx, actor, cls.id))) throw classNotFound('roi_labelindex');
      await this.rois.relabel(trx, rows, (r) => ({ classId: cls.id, labelIndex: r.roi_labelindex, hi: 1 }), {
        userId: actor.id,
        action: 'set-label',
      });
      return { class_id: cls.id, hi: 1 };
    });
  }

  /**
   * A new HI class: the superadmin's is shared, an administrator's belongs to their team, which may own at most
   * CLASS_LIMIT_PER_TEAM (the numbers 001–999 are shared by all teams; docs/decisions.md "Class ownership").
   */
  private async newClass(actor: UserRow, title: string): Promise<Created> {
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    const owner = actor.role === 'superadmin' ? null : actor.group_id;
    if (actor.role !== 'superadmin' && owner === null) throw forbidden();
    const labelIndex = labelIndexOf(title);
    return this.db.kysely.transaction().execute(async (trx) => {
      if (owner !== null) {
        await lockTeam(trx, owner, this.db.dialect);
        await assertTeamClassRoom(trx, owner);
      }
      await assertClassFree(trx, title, labelIndex);
      const id = await classesRepo.insertClass(trx, {
        name: title,
        label_index: labelIndex,
        group_id: owner,
        created_at: this.clock(),
      });
      return { roi_index_id: null, class_id: id, title, code: codes.groupClass('hi', id), roi_index_code: null };
    });
  }

  /** Where a new folder goes: the category's team, station or user. */

  /** `db` is the open transaction when called inside one: the plain handle there would wait for itself on SQLite. */
  private async scopeFor(
    db: Kysely<Database>,
    actor: UserRow,
    body: { category_id: number; ipp_id?: number; group_id?: number },
  ): Promise<folders.FolderScope> {
    const team = visibleGroup(actor, body.group_id);
    const needTeam = () => {
      if (team === undefined) throw new AppError(ResultCode.BAD_PARAM, 'teamRequired', {}, 'group_id');
      return team;
    };
    switch (body.category_id) {
      case CATEGORY.XCUBE:
        return { category_id: CATEGORY.XCUBE, group_id: null, ipp_id: null, user_id: null };
      case CATEGORY.TEAM:
        return { category_id: CATEGORY.TEAM, group_id: needTeam(), ipp_id: null, user_id: null };
      case CATEGORY.FOLDERS:
        return { category_id: CATEGORY.FOLDERS, group_id: needTeam(), ipp_id: null, user_id: null };
      case CATEGORY.TEMPORARY:
        return { category_id: CATEGORY.TEMPORARY, group_id: actor.group_id, ipp_id: null, user_id: actor.id };
      case CATEGORY.SITE_GALLERY: {
        const station = await visibleStationTeamById(db, actor, body.ipp_id);
        return { category_id: CATEGORY.SITE_GALLERY, group_id: station.group_id, ipp_id: station.id, user_id: null };
      }
      default:
        throw notSupported();
    }
  }

  private async operateTarget(trx: Trx, actor: UserRow, body: OperateFolderBody, source: folders.FolderRow) {
    if (body.roi_index_code !== undefined) {
      const target = await folders.findFolderByAnyCode(trx, body.roi_index_code);
      if (!target || !canWriteFolder(actor, target)) throw folderNotFound('roi_index_code');
      return target;
    }
    if (body.category_id === undefined)
      throw new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'category_id', reasonKey: 'reason.required' }, 'category_id');
    const scope = await this.scopeFor(trx, actor, {
      category_id: body.category_id,
      ipp_id: body.ipp_id,
      group_id: source.group_id ?? undefined,
    });
    if (!canWriteFolder(actor, scope)) throw forbidden();
    return folders.ensureFolder(trx, scope, source.title, this.clock());
  }

  private async writableFolder(actor: UserRow, id: number, field?: string) {
    if (actor.is_demo === 1) throw forbidden();
    const folder = await visibleFolder(this.db.kysely, actor, id, field);
    if (isExampleFor(actor, folder)) throw exampleReadOnly();
    if (!canWriteFolder(actor, folder)) throw forbidden();
    return folder;
  }

  /**
   * POST /folder/operate-folder on the example ROIs (spec §4: they support no operations): a class of the Xcube
   * library as source, or the library as target (category -1 / -6, or one of its folders by code), is refused for
   * everyone but the superadmin who maintains it. Checked before the operation opens its transaction.
   */
  async refuseExampleOperation(actor: UserRow, body: OperateFolderBody): Promise<void> {
    if (actor.is_demo === 1) return;
    const source = await folders.findFolder(this.db.kysely, body.roi_index_id);
    if (source && isExampleFor(actor, source)) throw exampleReadOnly();
    const copyOrMove = body.type === 'copy' || body.type === 'move';
    if (
      copyOrMove &&
      body.roi_index_code === undefined &&
      body.category_id !== undefined &&
      isExampleCategory(actor, body.category_id)
    )
      throw exampleReadOnly();
    const target =
      body.roi_index_code === undefined ? undefined : await folders.findFolderByAnyCode(this.db.kysely, body.roi_index_code);
    if (target && isExampleFor(actor, target)) throw exampleReadOnly();
  }

  private async editableClass(actor: UserRow, id: number) {
    if (!isAdmin(actor) || actor.is_demo === 1) throw forbidden();
    const cls = await findClass(this.db.kysely, id);
    if (cls.system === 1) throw new AppError(ResultCode.FORBIDDEN, 'systemClass');
    assertMayManageClass(actor, cls);
    return cls;
  }
}

/** The three leading digits of a class name are its label index (spec §5). */
const labelIndexOf = (title: string) => Number(title.slice(0, 3));

async function findClass(db: Kysely<Database>, id: number) {
  const cls = await classesRepo.findClassById(db, id);
  if (!cls) throw classNotFound();
  return cls;
}

/** Class names and label indexes are unique across the system (classes are global, docs/decisions.md). */
async function assertClassFree(trx: Trx, title: string, labelIndex: number | null, exceptId?: number) {
  const sameName = await classesRepo.findClassIdByName(trx, title);
  if (sameName && sameName.id !== exceptId) throw new AppError(ResultCode.BAD_PARAM, 'titleTaken', { title }, 'title');
  if (labelIndex === null) return;
  if (labelIndex === 0) throw new AppError(ResultCode.BAD_PARAM, 'labelTaken', { label: '000', title: UNCLASSIFIED }, 'title');
  const sameLabel = await classesRepo.findClassByLabel(trx, labelIndex);
  if (sameLabel && sameLabel.id !== exceptId) {
    throw new AppError(
      ResultCode.BAD_PARAM,
      'labelTaken',
      { label: String(labelIndex).padStart(3, '0'), title: sameLabel.name },
      'title',
    );
  }
}

/** Team-gallery folders holding demo images are not removed (spec §6: demo images support no operation). */
async function refuseDemoFolders(trx: Kysely<Database>, list: readonly { id: number; category_id: number }[]) {
  const team = list.filter((f) => f.category_id === CATEGORY.TEAM).map((f) => f.id);
  if ((await folders.foldersWithDemoImages(trx, team)).size > 0) throw demoImages();
}
