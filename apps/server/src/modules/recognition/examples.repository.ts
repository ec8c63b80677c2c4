import { CATEGORY } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** What training learns from (train-job.ts): a team's labelled ROIs, the reference libraries, the images. */

/** The team's live ROIs a person labelled (hi), newest first. */
export function humanLabelled(db: Kysely<Database>, groupId: number) {
  return db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .select(['r.id', 'r.class_id'])
    .where('i.group_id', '=', groupId)
    .where('r.hi', '=', 1)
    .where('r.deleted_at', 'is', null)
    .where('r.class_id', 'is not', null)
    .orderBy('r.id', 'desc')
    .execute();
}

/** The live members of the Xcube library and of the team's reference library, with their folder's title, newest first. */
export function referenceMembers(db: Kysely<Database>, groupId: number) {
  return db
    .selectFrom('folder_rois as fr')
    .innerJoin('roi_folders as f', 'f.id', 'fr.folder_id')
    .innerJoin('rois as r', 'r.id', 'fr.roi_id')
    .select(['fr.roi_id', 'f.title'])
    .where('r.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('f.category_id', '=', CATEGORY.XCUBE),
        eb.and([eb('f.category_id', '=', CATEGORY.TEAM), eb('f.group_id', '=', groupId)]),
      ]),
    )
    .orderBy('fr.roi_id', 'desc')
    .execute();
}

/** The ROIs' original images with their station's configuration (its binarization threshold measures them). */
export function imagesWithStationConfig(db: Kysely<Database>, ids: readonly number[]) {
  return db
    .selectFrom('rois as r')
    .innerJoin('ipps as p', 'p.id', 'r.ipp_id')
    .select(['r.id', 'r.sha256', 'r.mime', 'p.config'])
    .where('r.id', 'in', ids)
    .execute();
}
