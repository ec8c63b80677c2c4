import type { Job } from '@ipp/contracts';

/** How often a job still under way is asked about (its progress bar moves about once a second). */
export const JOB_POLL_MS = 1_000;

export function isJobActive(job: Pick<Job, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** Done share as a whole percent; a finished job is 100 even when it had nothing to do. */
export function jobPercent(job: Pick<Job, 'status' | 'done' | 'total'>): number {
  if (job.status === 'done') return 100;
  if (job.total <= 0) return 0;
  return Math.min(100, Math.floor((job.done / job.total) * 100));
}
