import { api } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** A folder (roi_index_id) or an HI class (class_id). */
export type NodeRef = { roi_index_id: number } | { class_id: number };

/** POST /roi-index/rename. Silent: the form shows the refusal under the name. */
export async function renameNode(body: NodeRef & { title: string }): Promise<void> {
  await api.post(EP.roiIndexRename, body, { silent: true });
}

export function useRenameNode() {
  return useIdentifyMutation(renameNode);
}
