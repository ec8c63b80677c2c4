import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { idChunks } from '../../db/query-helpers.ts';

/** One label change as written (roi_label_events). */
export interface LabelEvent {
  roi_id: number;
  at: number;
  user_id: number | null;
  model_id: number | null;
  action: string;
  from_class_id: number | null;
  from_hi: number;
  to_class_id: number | null;
  to_hi: number;
  bulk_id: number | null;
}

export async function insertEvents(db: Kysely<Database>, events: readonly LabelEvent[]) {
  for (const part of idChunks(events, 500)) await db.insertInto('roi_label_events').values(part).execute();
}

/** An ROI's label changes, oldest first, with the names of the people, models and classes they name. */
export async function eventsOf(db: Kysely<Database>, roiId: number) {
  const rows = await db
    .selectFrom('roi_label_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('ai_models as m', 'm.id', 'e.model_id')
    .leftJoin('classes as cf', 'cf.id', 'e.from_class_id')
    .leftJoin('classes as ct', 'ct.id', 'e.to_class_id')
    .select([
      'e.id',
      'e.at',
      'e.user_id',
      'u.name as user_name',
      'e.model_id',
      'm.version as model_version',
      'e.action',
      'e.from_class_id',
      'cf.name as from_class_name',
      'e.from_hi',
      'e.to_class_id',
      'ct.name as to_class_name',
      'e.to_hi',
      'e.bulk_id',
    ])
    .where('e.roi_id', '=', roiId)
    .orderBy('e.id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ ...r, at: Number(r.at) }));
}

/** The ROI the history is of: when and from which station it arrived, and its team. */
export function roiOrigin(db: Kysely<Database>, roiId: number) {
  return db
    .selectFrom('rois as r')
    .innerJoin('ipps as i', 'i.id', 'r.ipp_id')
    .select(['r.id', 'r.received_at', 'i.dev_id', 'i.group_id'])
    .where('r.id', '=', roiId)
    .executeTakeFirst();
}
