import { JobSchema, type Job } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /ai/jobs/cancel: stops a queued or running job; what it already changed stays. */
export async function cancelJob(jobId: number): Promise<Job> {
  return parseData(JobSchema, await api.post(EP.aiJobsCancel, { job_id: jobId }));
}

export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelJob,
    onSuccess: (job) => {
      queryClient.setQueryData(aiKeys.job(job.id), job);
      // A cancelled training also leaves its model failed.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: aiKeys.allJobs }),
        queryClient.invalidateQueries({ queryKey: aiKeys.allModels }),
      ]);
    },
  });
}
