import { ResultCode, type Job } from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, forbidden } from '../../http/app-error.ts';
import { requireOwned } from '../access/access.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as jobs from './jobs.repository.ts';
import * as models from './models.repository.ts';
import { isPlainUser } from '../access/access.ts';
import { teamOf } from './scope.ts';

const jobNotFound = () => new AppError(ResultCode.BAD_PARAM, 'jobNotFound', {}, 'job_id');

/** The recognition jobs (docs/recognition.md "Jobs"): the team's list, one job's progress, cancelling. */
export class JobsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async listJobs(actor: UserRow, q: { group_id?: number; kind?: 'reidentify' | 'train'; limit: number }) {
    const team = actor.role === 'superadmin' && q.group_id === undefined ? null : await teamOf(this.db.kysely, actor, q.group_id);
    return { items: (await jobs.listJobs(this.db.kysely, team, q.kind, q.limit)).map(presentJob) };
  }

  async job(actor: UserRow, jobId: number): Promise<Job> {
    const row = requireOwned(actor, await jobs.viewJob(this.db.kysely, jobId), jobNotFound);
    return presentJob(row);
  }

  /** Cancels a queued or running job: the running step rolls back, the steps already committed stay. */
  async cancel(actor: UserRow, jobId: number): Promise<Job> {
    const current = await this.job(actor, jobId);
    if (actor.is_demo === 1 || isPlainUser(actor)) throw forbidden();
    const now = this.clock();
    if (!(await jobs.cancelJob(this.db.kysely, jobId, now)))
      throw new AppError(ResultCode.BAD_PARAM, 'jobFinished', {}, 'job_id');
    if (current.kind === 'train' && current.model_id !== null) {
      await models.failTraining(this.db.kysely, current.model_id, 'cancelled', now);
    }
    return this.job(actor, jobId);
  }
}

function presentJob(r: jobs.JobView): Job {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: r.id,
    kind: r.kind as Job['kind'],
    group_id: r.group_id,
    status: r.status as Job['status'],
    total: r.total,
    done: r.done,
    changed: r.changed,
    ipp_id: r.ipp_id,
    dev_id: r.dev_id ?? null,
    class_id: r.class_id,
    class_name: r.class_name ?? null,
    start_at: num(r.start_at),
    end_at: num(r.end_at),
    model_id: r.model_id,
    user_name: r.user_name ?? null,
    error: r.error,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}
