import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The team's active model, if any (recognition's models.repository has the same: identify may not import it back). */
export function findActiveModel(db: Kysely<Database>, team: number) {
  return db.selectFrom('ai_models').select('id').where('group_id', '=', team).where('active', '=', 1).executeTakeFirst();
}

export interface ReidentifyScope {
  ippId: number;
  start: number;
  end: number;
  /** Only ROIs of this class; undefined: of any class or none. */
  classId?: number;
}

/** How many live ROIs of the station in the time range, with no human label, a re-identification would take. */
export async function countReidentifiable(db: Kysely<Database>, scope: ReidentifyScope): Promise<number> {
  let q = db
    .selectFrom('rois')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ipp_id', '=', scope.ippId)
    .where('roi_time', '>=', scope.start)
    .where('roi_time', '<=', scope.end)
    .where('deleted_at', 'is', null)
    .where('hi', '=', 0);
  if (scope.classId !== undefined) q = q.where('class_id', '=', scope.classId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Queues a re-identification job; its id. */
export async function queueReidentifyJob(
  db: Kysely<Database>,
  job: ReidentifyScope & { modelId: number; team: number; userId: number; total: number; now: number },
): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind: 'reidentify',
      model_id: job.modelId,
      group_id: job.team,
      ipp_id: job.ippId,
      user_id: job.userId,
      class_id: job.classId ?? null,
      start_at: job.start,
      end_at: job.end,
      status: 'queued',
      total: job.total,
      created_at: job.now,
      updated_at: job.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
