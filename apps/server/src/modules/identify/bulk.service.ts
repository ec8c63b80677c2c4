import {
  ACTION,
  CATEGORY,
  CLASS_NAME_PATTERN,
  labelKindOf,
  ResultCode,
  type BulkActionBody,
  type BulkResult,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { RoiCore } from '../rois/rois.repository.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { LabelSource } from '../label-history/label-source.ts';
import type { UndoService } from '../undo/undo.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { allowedCodes, isSingle, needsNoAi } from './actions.ts';
import { hiddenFromUser } from '../classes/classes.ts';
import * as classesRepo from '../classes/classes.repository.ts';
import { countInReviewStates } from './bulk.repository.ts';
import * as folders from './folders.repository.ts';
import { effectiveCategory } from './identify.service.ts';
import { ownedOnly } from '../access/access.ts';
import { canRemoveFromFolder, canWriteFolder, isExampleFor } from '../access/folder-access.ts';
import { categoryFolders, folderCategoryOf, isFolderCategory, parseCode, visibleFolder } from './scope.ts';
import { UNCLASSIFIED } from './tree.ts';
import { folderNotFound, roiNotFound } from '../access/not-found.ts';

type Trx = Kysely<Database>;

interface Ctx {
  trx: Trx;
  actor: UserRow;
  /** Who labels, by which code, in which journalled bulk action (the label history's source). */
  source: LabelSource;
  body: BulkActionBody;
  category: number;
  /** The folder the request names (its node's code, or a positive category_id), when it names one. */
  folder?: folders.FolderRow;
  rows: RoiCore[];
  live: Set<number>;
  now: number;
}

const notSupported = (key: 'notSupported' | 'exampleReadOnly' | 'aiSelected' | 'demoImages' = 'notSupported') =>
  new AppError(ResultCode.FORBIDDEN, key);
const notInReview = () => new AppError(ResultCode.BAD_PARAM, 'notInReviewQueue', {}, 'roi_ids');

/**
 * The review states each review action takes its ROIs from (1 pending, 2 approved, 3 rejected): approve and reject
 * act on the queue (the view with reviewed_type 0), back-to-pending on the reviewed (reviewed_type 1).
 */
const REVIEW_FROM: Partial<Record<BulkActionBody['type'], readonly number[]>> = {
  [ACTION.APPROVE]: [1],
  [ACTION.REJECT]: [1],
  [ACTION.SET_CLASS]: [1],
  [ACTION.BACK_TO_PENDING]: [2, 3],
};

/**
 * Bulk actions on ROI selections (docs/actions.md): the code must be allowed for the caller in the category,
 * every selected ROI must be visible there, and the whole action runs in one transaction with its counts.
 */
export class BulkService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rois: RoisService,
    private readonly undo: UndoService,
  ) {}

  async run(actor: UserRow, body: BulkActionBody): Promise<BulkResult> {
    const { category, folder } = await this.scopeOf(actor, body);
    if (category === CATEGORY.EXAMPLE && actor.role !== 'superadmin') throw notSupported('exampleReadOnly');
    if (folder && isExampleFor(actor, folder)) throw notSupported('exampleReadOnly');
    // Taking ROIs out of a named folder follows the folder rule (folder-access.ts) in every category: an administrator
    // removes from a team-gallery folder by 53 (POST /roi/operate-roi) as by 43 and by POST /folder/operate-folder.
    const removal = body.type === ACTION.REMOVE_FROM_FOLDER && folder !== undefined && canRemoveFromFolder(actor, folder);
    if (!allowedCodes(actor.role, category, body.reviewed_type).includes(body.type) && !removal) throw notSupported();
    if (isSingle(body.type) && body.roi_ids.length > 1) throw notSupported();
    return this.db.kysely.transaction().execute(async (trx) => {
      const rows = await this.selection(trx, actor, category, body);
      const journal = await this.undo.begin(
        trx,
        actor,
        body,
        category,
        rows.map((r) => r.id),
      );
      const source: LabelSource = { userId: actor.id, action: body.type, bulkId: journal.id };
      const ctx: Ctx = { trx, actor, source, body, category, folder, rows, live: liveIds(rows), now: this.clock() };
      const result = await this.apply(ctx);
      const bulkId = await this.undo.finish(trx, journal, result.affected);
      return {
        affected: result.affected,
        unchanged: rows.length - result.affected,
        roi_index_id: result.folderId ?? null,
        bulk_id: bulkId,
      };
    });
  }

  /**
   * The category whose rules apply (docs/actions.md), and the folder the request names. A positive category_id is one
   * folder, which stands for the category it lives in (the library or gallery that holds it), never for more: a folder
   * of the Xcube library is the example ROIs for everyone but the superadmin, a team-gallery folder follows the team
   * gallery's row. A folder named by the node's code must live in the category the request is made in.
   */
  private async scopeOf(actor: UserRow, body: BulkActionBody): Promise<{ category: number; folder?: folders.FolderRow }> {
    const k = this.db.kysely;
    const byId = body.category_id > 0 ? await visibleFolder(k, actor, body.category_id, 'category_id') : undefined;
    const category = effectiveCategory(actor, byId ? byId.category_id : body.category_id);
    if (!isFolderCategory(category)) return { category };
    const { folderId } = parseCode(body.code);
    if (folderId === undefined || folderId === byId?.id) return { category, folder: byId };
    const named = await visibleFolder(k, actor, folderId, 'code');
    if (folderCategoryOf(named.category_id) !== folderCategoryOf(category)) {
      if (isExampleFor(actor, named)) throw notSupported('exampleReadOnly');
      throw notSupported();
    }
    return { category, folder: named };
  }

  /** The selected ROIs, each visible to the caller in the category, or 1002 for the whole call. */
  private async selection(trx: Trx, actor: UserRow, category: number, body: BulkActionBody): Promise<RoiCore[]> {
    const ids = [...new Set(body.roi_ids)];
    const rows = await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres');
    if (rows.length !== ids.length) throw roiNotFound('roi_ids');
    const xcube = category === CATEGORY.XCUBE || category === CATEGORY.EXAMPLE;
    if (xcube) {
      const inLibrary = await folders.foldersHolding(trx, CATEGORY.XCUBE, ids);
      if (inLibrary.roiIds.size !== ids.length) throw roiNotFound('roi_ids');
    } else if (ownedOnly(actor, rows).length !== rows.length) {
      throw roiNotFound('roi_ids');
    }
    const binned = category === CATEGORY.RECYCLE;
    if (rows.some((r) => (r.deleted_at !== null) !== binned)) throw roiNotFound('roi_ids');
    if (needsNoAi(body.type) && rows.some((r) => labelKindOf(r.hi, r.roi_labelindex) === 'ai')) throw notSupported('aiSelected');
    if (category === CATEGORY.TEAM && rows.some((r) => r.is_demo_image === 1)) throw notSupported('demoImages');
    if (category === CATEGORY.REVIEW) await assertInReview(trx, ids, REVIEW_FROM[body.type] ?? []);
    return rows;
  }

  private async apply(ctx: Ctx): Promise<{ affected: number; folderId?: number }> {
    const { trx, rows, body } = ctx;
    const ids = rows.map((r) => r.id);
    switch (body.type) {
      case ACTION.DELETE:
        return { affected: await this.rois.recycle(trx, rows, ctx.actor.id) };
      case ACTION.RESTORE:
        return { affected: await this.rois.restore(trx, rows) };
      case ACTION.REDO_HI: {
        const byLabel = await classesRepo.classIdsByLabel(trx);
        return {
          affected: await this.rois.relabel(
            trx,
            rows,
            (r) => ({ classId: byLabel.get(r.roi_labelindex) ?? null, labelIndex: r.roi_labelindex, hi: 0 }),
            ctx.source,
          ),
        };
      }
      case ACTION.COPY_TO_HI:
      case ACTION.MOVE_TO_HI: {
        const classId = await targetClass(trx, ctx.actor, body.target_id, body.change_roi_labelindex);
        const affected = await this.rois.relabel(
          trx,
          rows,
          (r) => ({ classId, labelIndex: r.roi_labelindex, hi: 1 }),
          ctx.source,
        );
        if (body.type === ACTION.MOVE_TO_HI) await folders.removeMembers(trx, await sourceFolders(ctx), ids, ctx.live);
        return { affected };
      }
      case ACTION.COPY_TO_SITE_GALLERY:
        return {
          affected: await addToGalleries(ctx, (r) => ({
            category_id: CATEGORY.SITE_GALLERY,
            group_id: r.group_id,
            ipp_id: r.ipp_id,
            user_id: null,
          })),
        };
      case ACTION.COPY_TO_TEAM:
        return { affected: await addToGalleries(ctx, teamGalleryOf) };
      case ACTION.MOVE_TO_TEAM: {
        // As 52: only the ROIs still in the folder the move is made from go to the team gallery, the others count as
        // unchanged (a move of the same ROIs elsewhere at the same time took them first).
        const taken = await folders.takeMembers(trx, await sourceFolders(ctx), ids, ctx.live);
        await addToGalleries({ ...ctx, rows: rows.filter((r) => taken.has(r.id)) }, teamGalleryOf);
        return { affected: taken.size };
      }
      case ACTION.COPY_TO_XCUBE:
        return {
          affected: await addToGalleries(ctx, () => ({
            category_id: CATEGORY.XCUBE,
            group_id: null,
            ipp_id: null,
            user_id: null,
          })),
        };
      case ACTION.REMOVE_FROM_SITE_GALLERY:
      case ACTION.REMOVE_FROM_TEAM:
      case ACTION.REMOVE_FROM_XCUBE: {
        const category =
          body.type === ACTION.REMOVE_FROM_SITE_GALLERY
            ? CATEGORY.SITE_GALLERY
            : body.type === ACTION.REMOVE_FROM_TEAM
              ? CATEGORY.TEAM
              : CATEGORY.XCUBE;
        const holding = await folders.foldersHolding(trx, category, ids);
        await folders.removeMembers(trx, holding.folderIds, ids, ctx.live);
        return { affected: holding.roiIds.size };
      }
      case ACTION.COPY_TO_FOLDER: {
        const target = await writableTarget(ctx);
        return { affected: await folders.addMembers(trx, target.id, ids, ctx.live, ctx.now), folderId: target.id };
      }
      case ACTION.MOVE_TO_FOLDER: {
        const target = await writableTarget(ctx);
        // A move takes only the ROIs still in the folder it is made from: those the delete actually took out go into
        // the target, the others (moved away by someone else meanwhile, or never there) are counted as unchanged.
        const from = (await sourceFolders(ctx)).filter((id) => id !== target.id);
        const taken = await folders.takeMembers(trx, from, ids, ctx.live);
        const moving = ids.filter((id) => taken.has(id));
        await folders.addMembers(trx, target.id, moving, ctx.live, ctx.now);
        return { affected: moving.length, folderId: target.id };
      }
      case ACTION.REMOVE_FROM_FOLDER: {
        const from = await sourceFolders(ctx);
        if (from.length === 0) throw notSupported();
        return { affected: await countedRemoval(trx, from, ids, ctx.live) };
      }
      case ACTION.COPY_TO_TEMPORARY: {
        const folder = await newTemporaryClass(ctx);
        return { affected: await folders.addMembers(trx, folder.id, ids, ctx.live, ctx.now), folderId: folder.id };
      }
      case ACTION.FAVORITE:
      case ACTION.UNFAVORITE:
        return { affected: await roisRepo.setFavorites(trx, ids, body.type === ACTION.FAVORITE ? ctx.now : null) };
      case ACTION.SUBMIT_REVIEW:
      case ACTION.BACK_TO_PENDING:
        return { affected: await roisRepo.setReview(trx, ids, 1, ctx.now) };
      case ACTION.APPROVE: {
        const affected = await roisRepo.setReview(trx, ids, 2, ctx.now);
        // Approving confirms the label by a human; an unlabelled ROI has none to confirm and stays unlabelled.
        const labelled = rows.filter((r) => r.class_id !== null);
        // The approver gives the human label (an ROI already labelled by a person keeps its author).
        await this.rois.relabel(trx, labelled, (r) => ({ classId: r.class_id, labelIndex: r.roi_labelindex, hi: 1 }), ctx.source);
        return { affected };
      }
      case ACTION.VALIDATE: {
        // Validate as predicted: the AI label becomes a human one; unlabelled and human-labelled ROIs stay as they are.
        // A validated image has been looked at by a person: it leaves the review queue.
        const predicted = rows.filter((r) => r.class_id !== null && r.hi === 0);
        const affected = await this.rois.relabel(
          trx,
          predicted,
          (r) => ({ classId: r.class_id, labelIndex: r.roi_labelindex, hi: 1 }),
          ctx.source,
        );
        await roisRepo.approveWaiting(
          trx,
          predicted.map((r) => r.id),
          ctx.now,
        );
        return { affected };
      }
      case ACTION.SET_CLASS: {
        // Set class in place: a human label, the ROIs stay where they are; in the review queue it also approves.
        const classId = await targetClass(trx, ctx.actor, body.target_id, body.change_roi_labelindex);
        const affected = await this.rois.relabel(
          trx,
          rows,
          (r) => ({ classId, labelIndex: r.roi_labelindex, hi: 1 }),
          ctx.source,
        );
        if (ctx.category === CATEGORY.REVIEW) return { affected: await roisRepo.setReview(trx, ids, 2, ctx.now) };
        // Elsewhere a hand label still settles an image that was waiting for review (a dubious verdict stays).
        await roisRepo.approveWaiting(trx, ids, ctx.now);
        return { affected };
      }
      case ACTION.DUBIOUS:
        // Dubious: the label stays, the ROIs wait in the review queue for someone who may review.
        return { affected: await roisRepo.setReview(trx, ids, 1, ctx.now) };
      case ACTION.REJECT:
        return { affected: await roisRepo.setReview(trx, ids, 3, ctx.now) };
      case ACTION.COPY_CLASS_TO_TEAM:
      case ACTION.REMOVE_CLASS_FROM_TEAM:
        // Class-level codes: POST /folder/operate-folder.
        throw notSupported();
    }
  }
}

/**
 * Like every other category, the review queue acts only on the ROIs it holds: each selected ROI must be in one of
 * the review states the action takes ROIs from, or the whole call is refused (1002 on roi_ids) and nothing changes.
 */
async function assertInReview(trx: Trx, ids: readonly number[], from: readonly number[]) {
  if (from.length === 0) throw notSupported();
  const held = await countInReviewStates(trx, ids, from);
  if (held !== ids.length) throw notInReview();
}

const liveIds = (rows: readonly RoiCore[]) => new Set(rows.filter((r) => r.deleted_at === null).map((r) => r.id));

async function countedRemoval(trx: Trx, from: number[], ids: number[], live: ReadonlySet<number>) {
  const holding = await folders.roisHeldBy(trx, from, ids);
  await folders.removeMembers(trx, from, ids, live);
  return holding.size;
}

/** The folders a move or a remove takes ROIs out of: the folder named, or the category's folders the caller may. */
async function sourceFolders(ctx: Ctx): Promise<number[]> {
  const { trx, actor } = ctx;
  if (!isFolderCategory(ctx.category)) return [];
  if (ctx.folder !== undefined) {
    const folder = await visibleFolder(trx, actor, ctx.folder.id, 'code');
    if (isExampleFor(actor, folder)) throw notSupported('exampleReadOnly');
    if (!canRemoveFromFolder(actor, folder)) throw notSupported();
    return [folder.id];
  }
  return (await categoryFolders(trx, actor, ctx.category, {})).filter((f) => canRemoveFromFolder(actor, f)).map((f) => f.id);
}

/** The team gallery an ROI goes to (41, 42): its team's. */
const teamGalleryOf = (r: RoiCore): folders.FolderScope => ({
  category_id: CATEGORY.TEAM,
  group_id: r.group_id,
  ipp_id: null,
  user_id: null,
});

/** Copies each ROI into the gallery folder named after its class, creating folders as needed. */
async function addToGalleries(ctx: Ctx, scopeOf: (roi: RoiCore) => folders.FolderScope): Promise<number> {
  const titles = await classesRepo.allClassNames(ctx.trx);
  const groups = new Map<string, { scope: folders.FolderScope; title: string; ids: number[] }>();
  for (const roi of ctx.rows) {
    const scope = scopeOf(roi);
    const title = roi.class_id === null ? UNCLASSIFIED : (titles.get(roi.class_id) ?? UNCLASSIFIED);
    const key = JSON.stringify([scope, title]);
    const group = groups.get(key) ?? { scope, title, ids: [] };
    group.ids.push(roi.id);
    groups.set(key, group);
  }
  let added = 0;
  for (const g of groups.values()) {
    const folder = await folders.ensureFolder(ctx.trx, g.scope, g.title, ctx.now);
    added += await folders.addMembers(ctx.trx, folder.id, g.ids, ctx.live, ctx.now);
  }
  return added;
}

/** The target folder of 51/52: one the caller may write, of the ROIs' team (and station, for a site gallery). */
async function writableTarget(ctx: Ctx) {
  const { trx, actor, body } = ctx;
  if (body.target_id === undefined) throw folderNotFound('target_id');
  const folder = await visibleFolder(trx, actor, body.target_id, 'target_id');
  if (isExampleFor(actor, folder)) throw notSupported('exampleReadOnly');
  if (!canWriteFolder(actor, folder)) throw new AppError(ResultCode.FORBIDDEN, 'forbidden');
  const mismatch = ctx.rows.some(
    (r) =>
      (folder.group_id !== null && r.group_id !== folder.group_id) ||
      (folder.category_id === CATEGORY.SITE_GALLERY && r.ipp_id !== folder.ipp_id),
  );
  if (mismatch) throw new AppError(ResultCode.BAD_PARAM, 'targetMismatch', {}, 'target_id');
  return folder;
}

/** Checks a class title against the naming rule (spec §5). */
export function checkTitle(title: string | undefined, field = 'title'): string {
  const value = (title ?? '').trim();
  if (value === '') throw new AppError(ResultCode.BAD_PARAM, 'classNameEmpty', {}, field);
  if (!CLASS_NAME_PATTERN.test(value)) throw new AppError(ResultCode.BAD_PARAM, 'classNameBad', {}, field);
  return value;
}

async function newTemporaryClass(ctx: Ctx) {
  const title = checkTitle(ctx.body.title);
  const scope = { category_id: CATEGORY.TEMPORARY, group_id: ctx.actor.group_id, ipp_id: null, user_id: ctx.actor.id };
  if (await folders.findFolderByTitle(ctx.trx, scope, title))
    throw new AppError(ResultCode.BAD_PARAM, 'titleTaken', { title }, 'title');
  return folders.insertFolder(ctx.trx, scope, title, ctx.now);
}

/** The class to label with; a class the caller's team hides is, for a plain user, no class (as set-roi-label-index). */
async function targetClass(trx: Trx, actor: UserRow, id: number | undefined, labelIndex: number | undefined): Promise<number> {
  const row =
    id !== undefined
      ? await classesRepo.findClassById(trx, id)
      : labelIndex !== undefined
        ? await classesRepo.findClassByLabel(trx, labelIndex)
        : undefined;
  if (!row || (await hiddenFromUser(trx, actor, row.id)))
    throw new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, 'target_id');
  return row.id;
}
