import { GroupViewSchema, type GroupView } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

export const groupViewQueryKey = ['group-view'] as const;

/** The stations the signed-in user follows; a superadmin names the team (none: the one it chose last). */
export async function getGroupView(groupId: number | undefined, options: { signal?: AbortSignal } = {}): Promise<GroupView> {
  return parseData(
    GroupViewSchema,
    await api.get(EP.settingGetGroupView, { query: { group_id: groupId }, signal: options.signal }),
  );
}

export function groupViewQueryOptions(groupId: number | undefined) {
  return queryOptions({
    queryKey: [...groupViewQueryKey, groupId ?? 'own'],
    queryFn: ({ signal }) => getGroupView(groupId, { signal }),
    // The ticks start from what the server holds now.
    staleTime: 0,
  });
}

export function useGroupView(groupId: number | undefined) {
  return useQuery(groupViewQueryOptions(groupId));
}
