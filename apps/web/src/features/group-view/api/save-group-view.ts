import { GroupViewSchema, type GroupView, type GroupViewSaveBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { groupViewQueryKey } from './get-group-view';
import * as EP from '@ipp/contracts/endpoints';

/** Not silent: the read-only demo account is refused (1011) and the toast says so. */
export async function saveGroupView(body: GroupViewSaveBody): Promise<GroupView> {
  return parseData(GroupViewSchema, await api.post(EP.settingSetGroupView, body));
}

export function useSaveGroupView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGroupView,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupViewQueryKey }),
  });
}
