import { ACTION, CATEGORY, ResultCode, type BulkActionBody, type OperateResult } from '@ipp/contracts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { requireOwned } from '../access/access.ts';
import { hiddenFromUser } from '../classes/classes.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { BulkService } from './bulk.service.ts';
import * as folders from './folders.repository.ts';
import { codes, visibleFolder } from './scope.ts';
import { folderNotFound, roiNotFound } from '../access/not-found.ts';

/**
 * The older per-ROI calls: ROIs into, out of or across a folder and to the recycle bin (said again as bulk actions,
 * so BulkService checks the action matrix in one place), and one ROI's label by hand.
 */
export class RoiEditsService {
  constructor(
    private readonly db: Db,
    private readonly rois: RoisService,
    private readonly bulk: BulkService,
  ) {}

  /** POST /roi/operate-roi: copy/move ROIs into the folder with that code, or remove them from it (codes 51/52/53). */
  async operateRoi(
    actor: UserRow,
    body: { type: 'copy' | 'move' | 'remove'; roi_index_code: string; roi_ids: number[]; category_id: number; code?: string },
  ): Promise<OperateResult> {
    const folder = await folders.findFolderByAnyCode(this.db.kysely, body.roi_index_code);
    if (!folder) throw folderNotFound('roi_index_code');
    const bulk: BulkActionBody =
      body.type === 'remove'
        ? // Out of that folder, under the rules of the category it lives in (the folder rule of folder-access.ts decides).
          {
            type: ACTION.REMOVE_FROM_FOLDER,
            category_id: folder.category_id,
            code: codes.folder(folder.id),
            roi_ids: body.roi_ids,
          }
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
      const roi = requireOwned(actor, live, () => roiNotFound());
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
      if (!cls || (await hiddenFromUser(trx, actor, cls.id)))
        throw new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, 'roi_labelindex');
      await this.rois.relabel(trx, rows, (r) => ({ classId: cls.id, labelIndex: r.roi_labelindex, hi: 1 }), {
        userId: actor.id,
        action: 'set-label',
      });
      return { class_id: cls.id, hi: 1 };
    });
  }
}
