import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { viewsQueryKey } from '@/api/query-keys';
import { aiKeys, identifyKey } from './keys';

/**
 * What a change of ROI labels makes stale: every identify tree, list and count, the class lists, the overview pages
 * computed from the same images (corrected counts included), and the models list, which tallies each version's
 * labels (accepted by the machine / sent to review).
 */
export const labelChangeKeys: readonly QueryKey[] = [identifyKey, ['classes'], viewsQueryKey, aiKeys.allModels];

/** Refetches everything a label change made stale (labelChangeKeys); `skip` leaves some queries out. */
export function refreshAfterLabelChange(queryClient: QueryClient, skip?: (query: Query) => boolean): Promise<unknown> {
  return Promise.all(
    labelChangeKeys.map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, ...(skip ? { predicate: (query: Query) => !skip(query) } : {}) }),
    ),
  );
}
