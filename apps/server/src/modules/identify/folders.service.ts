import {
  CATEGORY,
  ResultCode,
  type Created,
  type NewFolderBody,
  type OperateFolderBody,
  type OperateResult,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { idChunks } from '../../db/query-helpers.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { isPlainUser, ownedOnly, teamRequired, visibleGroup } from '../access/access.ts';
import { canRemoveFromFolder, canSeeFolder, canWriteFolder, isExampleCategory, isExampleFor } from '../access/folder-access.ts';
import { visibleStationTeamById } from '../access/stations.ts';
import * as classesRepo from '../classes/classes.repository.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { checkTitle } from './bulk.service.ts';
import * as folders from './folders.repository.ts';
import type { FolderRow } from './folders.repository.ts';
import type { HiClassesService } from './hi-classes.service.ts';
import { codes, visibleFolder } from './scope.ts';
import { folderNotFound } from '../access/not-found.ts';

type Trx = Kysely<Database>;

const notSupported = () => new AppError(ResultCode.FORBIDDEN, 'notSupported');
const exampleReadOnly = () => new AppError(ResultCode.FORBIDDEN, 'exampleReadOnly');
const demoImages = () => new AppError(ResultCode.FORBIDDEN, 'demoImages');
const oneOf = () =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field: 'roi_index_id', reasonKey: 'reason.required' }, 'roi_index_id');

/**
 * Folders (roi-index) as things: create, rename, delete, attention and visibility, whole-folder copy/move/remove,
 * the caller's temporary classes and the folder counts. The same calls naming a class_id instead are HI classes
 * (HiClassesService); the toolbar, the recycle bin and the per-ROI calls have services of their own.
 */
export class FoldersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rois: RoisService,
    private readonly classes: HiClassesService,
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
      return this.classes.create(actor, title);
    }
    const scope = await this.scopeFor(this.db.kysely, actor, body);
    if (!canWriteFolder(actor, scope)) throw forbidden();
    return this.db.kysely.transaction().execute(async (trx) => {
      if (await folders.findFolderByTitle(trx, scope, title))
        throw new AppError(ResultCode.BAD_PARAM, 'titleTaken', { title }, 'title');
      const folder = await folders.insertFolder(trx, scope, title, this.clock());
      return {
        roi_index_id: folder.id,
        class_id: null,
        title,
        code: codes.folder(folder.id),
        roi_index_code: folder.code,
        category_id: folder.category_id,
        group_id: folder.group_id,
        ipp_id: folder.ipp_id,
      };
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
    return this.classes.rename(actor, body.class_id, title);
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
    return this.classes.remove(actor, body.class_id);
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
    return this.classes.changeStatus(actor, body.class_id, values, body.group_id);
  }

  /**
   * POST /folder/operate-folder: a whole class. copy/move with `category_id` takes the class itself (a folder of the
   * same title there, made or reused); with `roi_index_code` only its images, into that folder. remove deletes the
   * folder (its ROIs stay elsewhere). to_hi labels its images with the HI class of the same title and takes them
   * out of the folder (the folder stays, empty).
   */
  async operateFolder(actor: UserRow, body: OperateFolderBody): Promise<OperateResult> {
    if (actor.is_demo === 1) throw forbidden();
    const found = await folders.findFolder(this.db.kysely, body.roi_index_id);
    await this.refuseExampleOperation(actor, body, found);
    if (!found || !canSeeFolder(actor, found)) throw folderNotFound();
    const source = found;
    if (body.type === 'remove') {
      // The folder rule every removal follows (save-move 53/43/33, operate-roi remove): folder-access.ts.
      if (!canRemoveFromFolder(actor, source)) throw forbidden();
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
    if (isPlainUser(actor)) throw forbidden();
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

  /**
   * Where a new folder goes: the category's team, station or user. `db` is the open transaction when called inside
   * one: the plain handle there would wait for itself on SQLite.
   */
  private async scopeFor(
    db: Kysely<Database>,
    actor: UserRow,
    body: { category_id: number; ipp_id?: number; group_id?: number },
  ): Promise<folders.FolderScope> {
    const team = visibleGroup(actor, body.group_id);
    const needTeam = () => {
      if (team === undefined) throw teamRequired();
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
  private async refuseExampleOperation(actor: UserRow, body: OperateFolderBody, source: FolderRow | undefined): Promise<void> {
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
}

/** Team-gallery folders holding demo images are not removed (spec §6: demo images support no operation). */
async function refuseDemoFolders(trx: Kysely<Database>, list: readonly { id: number; category_id: number }[]) {
  const team = list.filter((f) => f.category_id === CATEGORY.TEAM).map((f) => f.id);
  if ((await folders.foldersWithDemoImages(trx, team)).size > 0) throw demoImages();
}
