import { sql, type Kysely, type Selectable } from 'kysely';
import type { DialectName } from '../../db/database.ts';
import type { Database, JobsTable } from '../../db/schema.ts';

export type JobRow = Selectable<JobsTable>;

/** Active means a worker may still pick it up: queued, or running under a lease. */
export const ACTIVE = ['queued', 'running'] as const;

/**
 * Takes the oldest job that is queued or whose worker's lease ran out, for `owner`, in one transaction. On
 * PostgreSQL the candidate row is locked with SKIP LOCKED, so several server processes never take the same job;
 * SQLite has one writer, so the transaction alone is enough.
 */
export async function claim(db: Kysely<Database>, dialect: DialectName, owner: string, now: number, leaseMs: number) {
  return db.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom('jobs')
      .select('id')
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
      .orderBy('id')
      .limit(1);
    if (dialect === 'postgres') q = q.forUpdate().skipLocked();
    const row = await q.executeTakeFirst();
    if (!row) return null;
    return trx
      .updateTable('jobs')
      .set({ status: 'running', lease_owner: owner, lease_until: now + leaseMs, attempts: sql`attempts + 1`, updated_at: now })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * Records a step of the job in the caller's transaction, only while `owner` still holds it and nobody cancelled it;
 * answers false otherwise (the caller rolls its step back).
 */
export async function step(
  db: Kysely<Database>,
  jobId: number,
  owner: string,
  change: Partial<Pick<JobRow, 'done' | 'changed' | 'total' | 'cursor_time' | 'cursor_id'>> & {
    lease_until: number;
    updated_at: number;
  },
) {
  const result = await db
    .updateTable('jobs')
    .set(change)
    .where('id', '=', jobId)
    .where('status', '=', 'running')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function finish(
  db: Kysely<Database>,
  jobId: number,
  owner: string,
  status: 'done' | 'failed',
  now: number,
  error: string | null = null,
) {
  const result = await db
    .updateTable('jobs')
    .set({ status, error, lease_owner: null, lease_until: null, updated_at: now })
    .where('id', '=', jobId)
    .where('status', '=', 'running')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const VIEW = [
  'j.id',
  'j.kind',
  'j.group_id',
  'j.status',
  'j.total',
  'j.done',
  'j.changed',
  'j.ipp_id',
  'p.dev_id',
  'j.class_id',
  'c.name as class_name',
  'j.start_at',
  'j.end_at',
  'j.model_id',
  'u.name as user_name',
  'j.user_id',
  'j.error',
  'j.created_at',
  'j.updated_at',
] as const;

function view(db: Kysely<Database>) {
  return db
    .selectFrom('jobs as j')
    .leftJoin('ipps as p', 'p.id', 'j.ipp_id')
    .leftJoin('classes as c', 'c.id', 'j.class_id')
    .leftJoin('users as u', 'u.id', 'j.user_id')
    .select(VIEW);
}

export function listJobs(db: Kysely<Database>, groupId: number | null, kind: string | undefined, limit: number) {
  let q = view(db).orderBy('j.id', 'desc').limit(limit);
  if (groupId !== null) q = q.where('j.group_id', '=', groupId);
  if (kind) q = q.where('j.kind', '=', kind);
  return q.execute();
}

export function viewJob(db: Kysely<Database>, jobId: number) {
  return view(db).where('j.id', '=', jobId).executeTakeFirst();
}
export type JobView = NonNullable<Awaited<ReturnType<typeof viewJob>>>;

/** The team's training job still queued or running, if any. */
export function activeTrainingJob(db: Kysely<Database>, groupId: number) {
  return db
    .selectFrom('jobs')
    .select('id')
    .where('group_id', '=', groupId)
    .where('kind', '=', 'train')
    .where('status', 'in', ACTIVE)
    .executeTakeFirst();
}

/** Queues the training of a model version; its id. */
export async function queueTrainingJob(
  db: Kysely<Database>,
  job: { team: number; userId: number; modelId: number; now: number },
): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind: 'train',
      group_id: job.team,
      user_id: job.userId,
      model_id: job.modelId,
      status: 'queued',
      total: 1000,
      created_at: job.now,
      updated_at: job.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Cancels a job still queued or running; whether it was. */
export async function cancelJob(db: Kysely<Database>, jobId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', lease_owner: null, lease_until: null, updated_at: now })
    .where('id', '=', jobId)
    .where('status', 'in', ACTIVE)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The next ROIs a re-identification job works after its cursor: the station's live ROIs in the range (of the job's class,
 * if any) that no human labelled, in (time, id) order.
 */
export async function reidentifyBatch(
  db: Kysely<Database>,
  job: JobRow,
  cursor: { time: number | null; id: number | null },
  size: number,
) {
  let q = db
    .selectFrom('rois')
    .select(['id', 'roi_time', 'sha256', 'mime'])
    .where('ipp_id', '=', job.ipp_id!)
    .where('deleted_at', 'is', null)
    .where('hi', '=', 0)
    .where('roi_time', '>=', job.start_at!)
    .where('roi_time', '<=', job.end_at!)
    .orderBy('roi_time')
    .orderBy('id')
    .limit(size);
  if (job.class_id !== null) q = q.where('class_id', '=', job.class_id);
  if (cursor.time !== null && cursor.id !== null) {
    const [t, id] = [cursor.time, cursor.id];
    // `roi_time >= t` on its own gives the index a range that starts at the cursor; the OR alone made both engines
    // read the range from its start at every batch, so a job's cost grew with the square of its size.
    q = q.where('roi_time', '>=', t).where((eb) => eb.or([eb('roi_time', '>', t), eb('id', '>', id)]));
  }
  const rows = await q.execute();
  return rows.map((r) => ({ ...r, roi_time: Number(r.roi_time) }));
}
