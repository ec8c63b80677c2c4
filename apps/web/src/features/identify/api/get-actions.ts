import { ActionsSchema, type Actions } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { cleanQuery, identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/actions: the action codes the caller may use in a category (docs/actions.md). */
export async function getActions(
  categoryId: number,
  reviewedType?: number,
  options: { signal?: AbortSignal } = {},
): Promise<Actions> {
  const query = cleanQuery({ category_id: categoryId, reviewed_type: reviewedType });
  return parseData(ActionsSchema, await api.get(EP.roiActions, { query, signal: options.signal }));
}

export function useActions(categoryId: number | null, reviewedType?: number) {
  return useQuery({
    queryKey: identifyKeys.actions(categoryId ?? 0, reviewedType),
    queryFn: ({ signal }) => getActions(categoryId!, reviewedType, { signal }),
    enabled: categoryId !== null,
    staleTime: 5 * 60_000,
  });
}
