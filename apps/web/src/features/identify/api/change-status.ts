import { api } from '@/api/client';
import type { NodeRef } from './rename-node';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-index/change-status: attention (highlight) of a folder or a class. */
export async function changeStatus(body: NodeRef & { attention?: boolean; status?: 0 | 1 }): Promise<void> {
  await api.post(EP.roiIndexChangeStatus, body);
}

export function useChangeStatus() {
  return useIdentifyMutation(changeStatus);
}
