import { useMutation, useQueryClient } from '@tanstack/react-query';
import { viewsQueryKey } from '@/api/query-keys';
import { identifyKey } from './keys';

/**
 * A change in the identify workspace: afterwards every tree, list, count and class list is stale, and so are the
 * overview pages computed from the same images (favourites, labels, the recycle bin change them).
 */
export function useIdentifyMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: identifyKey }),
        queryClient.invalidateQueries({ queryKey: ['classes'] }),
        queryClient.invalidateQueries({ queryKey: viewsQueryKey }),
      ]),
  });
}
