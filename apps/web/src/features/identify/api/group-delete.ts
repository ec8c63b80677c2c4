import { api } from '@/api/client';
import { cleanQuery } from './keys';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-group/delete: empty the recycle bin (-8) or the caller's temporary classes (-5). */
export async function groupDelete({ category_id, group_id }: { category_id: number; group_id?: number }): Promise<void> {
  await api.post(EP.roiGroupDelete, { category_id }, { query: cleanQuery({ group_id }) });
}

export function useGroupDelete() {
  return useIdentifyMutation(groupDelete);
}
