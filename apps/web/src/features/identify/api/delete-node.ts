import { api } from '@/api/client';
import type { NodeRef } from './rename-node';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-index/delete-folder: a folder (its ROIs stay elsewhere) or an unused HI class. */
export async function deleteNode(body: NodeRef): Promise<void> {
  await api.post(EP.roiIndexDeleteFolder, body);
}

export function useDeleteNode() {
  return useIdentifyMutation(deleteNode);
}
