import { JobListSchema, type JOB_KINDS, type Job } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { isJobActive, JOB_POLL_MS } from '../utils/jobs';
import { aiKeys, cleanQuery } from './keys';
import * as EP from '@ipp/contracts/endpoints';

export interface JobsQuery {
  group_id?: number;
  kind?: (typeof JOB_KINDS)[number];
  limit?: number;
}

/** GET /ai/jobs: the team's recent recognition jobs, newest first. */
export async function getJobs(query: JobsQuery, options: { signal?: AbortSignal } = {}): Promise<Job[]> {
  const data = await api.get(EP.aiJobs, { query: cleanQuery(query), signal: options.signal });
  return parseData(JobListSchema, data).items;
}

/** The list, refreshed every second or two while any of its jobs is under way. */
export function useJobs(query: JobsQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: aiKeys.jobs(query),
    queryFn: ({ signal }) => getJobs(query, { signal }),
    enabled: options.enabled ?? true,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.some(isJobActive) ? 2 * JOB_POLL_MS : false),
  });
}
