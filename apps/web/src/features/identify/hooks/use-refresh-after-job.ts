import type { Job } from '@ipp/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { aiKeys } from '../api/keys';
import { refreshAfterLabelChange } from '../api/label-change-keys';

/**
 * What a finished job made stale: a re-identification relabels ROIs (lists, trees, counts, class lists, the
 * overview pages, the models' label tallies); a training adds a model version. Cancelled and failed jobs may have done part of their work.
 */
export function useRefreshAfterJob(): (job: Pick<Job, 'kind'>) => Promise<unknown> {
  const queryClient = useQueryClient();
  return useCallback(
    (job) => {
      if (job.kind === 'train') return queryClient.invalidateQueries({ queryKey: aiKeys.allModels });
      return refreshAfterLabelChange(queryClient);
    },
    [queryClient],
  );
}
