import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshAfterLabelChange } from './label-change-keys';

/**
 * A change in the identify workspace: afterwards every tree, list, count and class list is stale, and so are the
 * overview pages computed from the same images (favourites, labels, the recycle bin change them), and the models'
 * label tallies.
 */
export function useIdentifyMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => refreshAfterLabelChange(queryClient),
  });
}
