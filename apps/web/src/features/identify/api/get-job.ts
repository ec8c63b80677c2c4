import { JobSchema, type Job } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { isJobActive, JOB_POLL_MS } from '../utils/jobs';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ai/job: one recognition job (re-identification or training) with its progress. */
export async function getJob(jobId: number, options: { signal?: AbortSignal } = {}): Promise<Job> {
  return parseData(JobSchema, await api.get(EP.aiJob, { query: { job_id: jobId }, signal: options.signal }));
}

/** The job, asked about again every second while it is queued or running. */
export function useJob(jobId: number | null) {
  return useQuery({
    queryKey: aiKeys.job(jobId ?? 0),
    queryFn: ({ signal }) => getJob(jobId!, { signal }),
    enabled: jobId !== null,
    staleTime: 0,
    // A failed look-up stops the polling (its toast is not repeated every second) until the user retries.
    refetchInterval: (query) =>
      query.state.status === 'error' || (query.state.data && !isJobActive(query.state.data)) ? false : JOB_POLL_MS,
  });
}
