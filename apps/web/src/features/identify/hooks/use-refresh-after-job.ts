import type { Job } from '@ipp/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { viewsQueryKey } from '@/api/query-keys';
import { aiKeys, identifyKey } from '../api/keys';

/**
 * What a finished job made stale: a re-identification relabels ROIs (lists, trees, counts, class lists, the
 * overview pages); a training adds a model version. Cancelled and failed jobs may have done part of their work.
 */
export function useRefreshAfterJob(): (job: Pick<Job, 'kind'>) => Promise<unknown> {
  const queryClient = useQueryClient();
  return useCallback(
    (job) => {
      if (job.kind === 'train') return queryClient.invalidateQueries({ queryKey: aiKeys.allModels });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: identifyKey }),
        queryClient.invalidateQueries({ queryKey: ['classes'] }),
        queryClient.invalidateQueries({ queryKey: viewsQueryKey }),
      ]);
    },
    [queryClient],
  );
}
