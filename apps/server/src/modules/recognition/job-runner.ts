import crypto from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import * as jobs from './jobs.repository.ts';

export const LEASE_MS = 60_000;
/** A job whose worker died this many times is failed rather than retried forever. */
export const MAX_ATTEMPTS = 5;

/** Thrown inside a step when the job was cancelled or taken over: the step's transaction rolls back. */
export class JobLost extends Error {
  constructor() {
    super('job cancelled or taken over');
  }
}

/** What a job handler may do: commit a step in its transaction, keep its lease, check it is still wanted. */
export interface JobContext {
  readonly owner: string;
  /** Records progress in `trx` (the same transaction as the step's work); throws JobLost if the job is not ours. */
  step(
    trx: Kysely<Database>,
    change: { done?: number; changed?: number; total?: number; cursor_time?: number; cursor_id?: number },
  ): Promise<void>;
  /** Extends the lease outside a step (long computations); false when the job was cancelled or taken over. */
  heartbeat(): Promise<boolean>;
}

export type JobHandler = (job: jobs.JobRow, ctx: JobContext) => Promise<void>;

/**
 * The durable job queue (docs/recognition.md "Jobs"). Jobs are rows; a worker claims one under a lease, commits
 * each step of work together with the job's progress, and renews the lease with every step. A worker that dies
 * leaves a lease that runs out; the next claim resumes from the last committed step, so no step is done twice.
 */
export class JobRunner {
  readonly owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wake: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: { error: (o: object, msg: string) => void } = { error: () => {} },
  ) {}

  /** Works the queue in the background until stop(). */
  start(pollMs = 1000) {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = async () => {
      while (!this.stopped) {
        const worked = await this.runOnce().catch((err: unknown) => {
          this.log.error({ err }, 'job runner');
          return false;
        });
        if (worked || this.stopped) continue;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.timer = setTimeout(resolve, pollMs);
        });
        this.wake = null;
      }
    };
    this.running = loop();
  }

  /** A new job was queued: look now rather than at the next poll. */
  poke() {
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
  }

  async stop() {
    this.stopped = true;
    this.poke();
    await this.running;
  }

  /** Claims and runs one job; false when there was nothing to do. */
  async runOnce(): Promise<boolean> {
    const job = await jobs.claim(this.db.kysely, this.db.dialect, this.owner, this.clock(), LEASE_MS);
    if (!job) return false;
    if (job.attempts > MAX_ATTEMPTS) {
      await jobs.finish(this.db.kysely, job.id, this.owner, 'failed', this.clock(), 'jobGaveUp');
      return true;
    }
    const handler = this.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job, this.context(job.id));
      await jobs.finish(this.db.kysely, job.id, this.owner, 'done', this.clock());
    } catch (err) {
      if (err instanceof JobLost) return true;
      this.log.error({ err, job: job.id }, 'job failed');
      const message = err instanceof Error ? err.message : String(err);
      await jobs.finish(this.db.kysely, job.id, this.owner, 'failed', this.clock(), message.slice(0, 500));
    }
    return true;
  }

  /** Runs jobs until none is left (tests and tools). */
  async drain() {
    while (await this.runOnce());
  }

  private context(jobId: number): JobContext {
    const owner = this.owner;
    return {
      owner,
      step: async (trx, change) => {
        const now = this.clock();
        const ok = await jobs.step(trx, jobId, owner, { ...change, lease_until: now + LEASE_MS, updated_at: now });
        if (!ok) throw new JobLost();
      },
      heartbeat: async () => {
        const now = this.clock();
        return jobs.step(this.db.kysely, jobId, owner, { lease_until: now + LEASE_MS, updated_at: now });
      },
    };
  }
}
