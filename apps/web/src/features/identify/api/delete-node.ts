import { api } from '@/api/client';
import type { NodeRef } from './rename-node';
import { useIdentifyMutation } from './use-identify-mutation';

/** POST /roi-index/delete-folder: a folder (its ROIs stay elsewhere) or an unused HI class. */
export async function deleteNode(body: NodeRef): Promise<void> {
  await api.post<unknown>('/roi-index/delete-folder', body);
}

export function useDeleteNode() {
  return useIdentifyMutation(deleteNode);
}
