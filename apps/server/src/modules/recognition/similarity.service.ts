import { CATEGORY, ResultCode, type ReferenceAnswer, type Similar } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import { canWriteFolder } from '../access/folder-access.ts';
import { classNames } from '../classes/classes.repository.ts';
import { titleResolver } from '../classes/classes.ts';
import * as foldersRepo from '../identify/folders.repository.ts';
import { visibleFolder } from '../identify/scope.ts';
import { findRoisCore, roiImages, summaries } from '../rois/rois.repository.ts';
import { presentRoi } from '../rois/rois.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { decodeInt8, loadFeatures, referenceDescriptors, type StoredFeatures } from './features.repository.ts';
import { measureStoredRoi, storeRecomputedFeatures } from './recomputed-features.ts';
import { roiNotFound } from '../access/not-found.ts';
import { teamOf, visibleRois } from './scope.ts';
import type { SimilarityIndex } from './similarity.ts';
import { VECTOR_VERSION } from './vector.ts';

/**
 * Likeness (docs/recognition.md "Similarity"): the team's nearest ROIs, the reference classes (POST /folders/add and
 * /folders/delete) and which of them an ROI is like (POST /folders/query).
 */
export class SimilarityService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
    private readonly similarity: SimilarityIndex,
  ) {}

  /** GET /ai/similar: the team's ROIs nearest by descriptor, live and visible, nearest first. */
  async similar(actor: UserRow, roiId: number, limit: number): Promise<Similar> {
    const roi = (await visibleRois(this.db.kysely, actor, [roiId])).get(roiId)!;
    const own = await this.ensureFeatures(roiId);
    const candidates = await this.similarity.nearest(roi.group_id, own.sim, limit * 3 + 10, roiId);
    const distance = new Map(candidates.map((c) => [c.roi_id, c.distance]));
    const live = (await findRoisCore(this.db.kysely, [...distance.keys()])).filter(
      (r) => r.deleted_at === null && r.group_id === roi.group_id,
    );
    const ids = live
      .map((r) => r.id)
      .sort((a, b) => distance.get(a)! - distance.get(b)!)
      .slice(0, limit);
    const rows = ids.length === 0 ? [] : await summaries(this.db.kysely).where('r.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      items: ids.filter((id) => byId.has(id)).map((id) => ({ ...presentRoi(byId.get(id)!), distance: distance.get(id)! })),
    };
  }

  /** The ROI's stored features, computed now if it has none at this version. */
  private async ensureFeatures(roiId: number): Promise<StoredFeatures> {
    const stored = (await loadFeatures(this.db.kysely, [roiId], VECTOR_VERSION)).get(roiId);
    if (stored) return stored;
    const [r] = await roiImages(this.db.kysely, [roiId]);
    const measured = r && (await measureStoredRoi(this.db.kysely, this.blobs, r));
    if (!measured) throw roiNotFound();
    const { item, groupId } = measured;
    await this.db.kysely.transaction().execute((trx) => storeRecomputedFeatures(trx, [item], this.db.dialect === 'postgres'));
    this.similarity.update(groupId, roiId, item.sim);
    return item;
  }

  /** POST /folders/add and /folders/delete: ROIs into or out of a reference class (team or Xcube library). */
  async reference(actor: UserRow, body: { roi_index_id: number; roi_ids: number[] }, add: boolean) {
    if (actor.is_demo === 1) throw forbidden();
    const folder = await visibleFolder(this.db.kysely, actor, body.roi_index_id);
    if (folder.category_id !== CATEGORY.TEAM && folder.category_id !== CATEGORY.XCUBE) {
      throw new AppError(ResultCode.BAD_PARAM, 'notReferenceFolder', {}, 'roi_index_id');
    }
    if (!canWriteFolder(actor, folder)) throw forbidden();
    const seen = await visibleRois(this.db.kysely, actor, body.roi_ids, 'roi_ids');
    const live = new Set([...seen.values()].filter((r) => r.deleted_at === null).map((r) => r.id));
    const affected = await this.db.kysely
      .transaction()
      .execute((trx) =>
        add
          ? foldersRepo.addMembers(trx, folder.id, body.roi_ids, live, this.clock())
          : foldersRepo.removeMembers(trx, [folder.id], body.roi_ids, live),
      );
    return { affected };
  }

  /** POST /folders/query: the k reference ROIs nearest to this one, and their classes by distance-weighted vote. */
  async queryReference(actor: UserRow, body: { roi_id: number; k: number; group_id?: number }): Promise<ReferenceAnswer> {
    await visibleRois(this.db.kysely, actor, [body.roi_id]);
    const team = await teamOf(this.db.kysely, actor, body.group_id);
    const own = await this.ensureFeatures(body.roi_id);
    const refs = await referenceDescriptors(this.db.kysely, team, body.roi_id);
    if (refs.length === 0) throw new AppError(ResultCode.BAD_PARAM, 'noReferences', {}, 'roi_id');
    const classOfTitle = await titleResolver(this.db.kysely);
    const scored = refs
      .map((r) => {
        const sim = decodeInt8(r.sim);
        let d = 0;
        for (let j = 0; j < sim.length; j++) d += (sim[j]! - own.sim[j]!) ** 2;
        return { roi_id: r.roi_id, folder_id: r.folder_id, class_id: classOfTitle(r.title)?.id ?? 0, distance: Math.sqrt(d) };
      })
      .sort((a, b) => a.distance - b.distance)
      .slice(0, body.k);
    const votes = new Map<number, { score: number; votes: number }>();
    for (const n of scored) {
      const v = votes.get(n.class_id) ?? { score: 0, votes: 0 };
      v.score += 1 / (1 + n.distance);
      v.votes += 1;
      votes.set(n.class_id, v);
    }
    const total = [...votes.values()].reduce((a, v) => a + v.score, 0);
    const names = await classNames(this.db.kysely, [...votes.keys()]);
    return {
      classes: [...votes.entries()]
        .map(([class_id, v]) => ({ class_id, class_name: names.get(class_id) ?? '', score: v.score / total, votes: v.votes }))
        .sort((a, b) => b.score - a.score),
      neighbours: scored,
    };
  }
}
