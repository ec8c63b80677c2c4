import { CATEGORY, ResultCode } from '@ipp/contracts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { isPlainUser, ownedOnly, visibleGroup } from '../access/access.ts';
import * as roisRepo from '../rois/rois.repository.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { FoldersService } from './folders.service.ts';
import { roiNotFound } from '../access/not-found.ts';

/** The recycle bin by hand (administrators): ROIs restored or purged, the bin emptied. The hourly sweep is recycle-sweeper.ts. */
export class RecycleBinService {
  constructor(
    private readonly db: Db,
    private readonly rois: RoisService,
    /** Empties the caller's temporary classes, the other group /roi-group/delete names. */
    private readonly folders: Pick<FoldersService, 'deleteTemporary'>,
  ) {}

  /** POST /roi-group/re-bin: restore (re) or purge (delete) ROIs of the recycle bin; administrators. */
  async reBin(actor: UserRow, action: 're' | 'delete', roiIds: readonly number[]): Promise<number> {
    if (isPlainUser(actor) || actor.is_demo === 1) throw forbidden();
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = [...new Set(roiIds)];
      const rows = await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres');
      const mine = ownedOnly(actor, rows).filter((r) => r.deleted_at !== null);
      if (mine.length !== ids.length) throw roiNotFound('roi_ids');
      return action === 're' ? this.rois.restore(trx, mine) : this.rois.purge(trx, mine);
    });
  }

  /** POST /roi-group/delete: empty the recycle bin (-8, administrators) or the caller's temporary classes (-5). */
  async groupDelete(actor: UserRow, categoryId: number, groupId?: number): Promise<number> {
    if (actor.is_demo === 1) throw forbidden();
    if (categoryId === CATEGORY.TEMPORARY) return this.folders.deleteTemporary(actor);
    if (categoryId !== CATEGORY.RECYCLE) throw new AppError(ResultCode.FORBIDDEN, 'notSupported');
    if (isPlainUser(actor)) throw forbidden();
    const team = visibleGroup(actor, groupId);
    return this.db.kysely.transaction().execute(async (trx) => {
      const ids = await roisRepo.recycledRoiIds(trx, team);
      return this.rois.purge(trx, await roisRepo.findRoisCore(trx, ids, this.db.dialect === 'postgres'));
    });
  }
}
