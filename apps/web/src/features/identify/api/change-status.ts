import { api } from '@/api/client';
import type { NodeRef } from './rename-node';
import { useIdentifyMutation } from './use-identify-mutation';

/** POST /roi-index/change-status: attention (highlight) of a folder or a class. */
export async function changeStatus(body: NodeRef & { attention?: boolean; status?: 0 | 1 }): Promise<void> {
  await api.post<unknown>('/roi-index/change-status', body);
}

export function useChangeStatus() {
  return useIdentifyMutation(changeStatus);
}
