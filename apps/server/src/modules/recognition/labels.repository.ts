import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { idChunks } from '../../db/query-helpers.ts';

/** An AI label as stored: the model, the winning class, its vote share and the best classes. */
export interface AiLabelRow {
  roi_id: number;
  model_id: number;
  class_id: number;
  confidence: number;
  top: [number, number][];
  low: boolean;
  labelled_at: number;
}

export async function saveLabels(db: Kysely<Database>, rows: readonly AiLabelRow[]) {
  for (const part of idChunks(rows, 300)) {
    await db
      .insertInto('ai_labels')
      .values(
        part.map((l) => ({
          roi_id: l.roi_id,
          model_id: l.model_id,
          class_id: l.class_id,
          confidence: l.confidence,
          top: JSON.stringify(l.top),
          low: l.low ? 1 : 0,
          labelled_at: l.labelled_at,
        })),
      )
      .onConflict((oc) =>
        oc.column('roi_id').doUpdateSet((eb) => ({
          model_id: eb.ref('excluded.model_id'),
          class_id: eb.ref('excluded.class_id'),
          confidence: eb.ref('excluded.confidence'),
          top: eb.ref('excluded.top'),
          low: eb.ref('excluded.low'),
          labelled_at: eb.ref('excluded.labelled_at'),
        })),
      )
      .execute();
  }
}

export async function findLabel(db: Kysely<Database>, roiId: number) {
  const row = await db
    .selectFrom('ai_labels as l')
    .innerJoin('ai_models as m', 'm.id', 'l.model_id')
    .select(['l.roi_id', 'l.model_id', 'm.version', 'l.class_id', 'l.confidence', 'l.top', 'l.low', 'l.labelled_at'])
    .where('l.roi_id', '=', roiId)
    .executeTakeFirst();
  if (!row) return null;
  return { ...row, top: JSON.parse(row.top) as [number, number][], labelled_at: Number(row.labelled_at) };
}

/**
 * A station's live ROIs captured in [start, end), counted by class and by who labelled them: a person (hi), the
 * team model whose stored label is the ROI's class (model_id), or neither (the instrument's label, unidentified).
 */
export async function labelCountsIn(db: Kysely<Database>, ippId: number, start: number, end: number) {
  const rows = await db
    .selectFrom('rois as r')
    .leftJoin('ai_labels as l', (j) => j.onRef('l.roi_id', '=', 'r.id').onRef('l.class_id', '=', 'r.class_id'))
    .select((eb) => ['r.hi', 'l.model_id', 'r.class_id', eb.fn.countAll<number | string>().as('n')])
    .where('r.ipp_id', '=', ippId)
    .where('r.roi_time', '>=', start)
    .where('r.roi_time', '<', end)
    .where('r.deleted_at', 'is', null)
    .groupBy(['r.hi', 'l.model_id', 'r.class_id'])
    .execute();
  return rows.map((r) => ({
    source: r.hi === 1 ? ('human' as const) : r.model_id !== null ? ('model' as const) : ('other' as const),
    model_id: r.hi === 1 ? null : r.model_id,
    class_id: r.class_id,
    n: Number(r.n),
  }));
}

/** Per model: the AI labels it gave that are still stored, accepted by the machine (low 0) or sent to review. */
export async function labelTallies(db: Kysely<Database>, modelIds: readonly number[]) {
  const out = new Map<number, { accepted: number; review: number }>();
  if (modelIds.length === 0) return out;
  const rows = await db
    .selectFrom('ai_labels')
    .select((eb) => ['model_id', 'low', eb.fn.countAll<number | string>().as('n')])
    .where('model_id', 'in', [...modelIds])
    .groupBy(['model_id', 'low'])
    .execute();
  for (const r of rows) {
    const t = out.get(r.model_id) ?? { accepted: 0, review: 0 };
    if (r.low === 1) t.review += Number(r.n);
    else t.accepted += Number(r.n);
    out.set(r.model_id, t);
  }
  return out;
}

/** Of these ROIs, those nobody has reviewed (a reviewed ROI keeps its verdict). */
export async function unreviewedAmong(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  const pending = await db.selectFrom('rois').select('id').where('id', 'in', ids).where('review_status', '=', 0).execute();
  return pending.map((r) => r.id);
}
