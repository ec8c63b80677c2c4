import { api } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-index/delete-tool-bar: one of the caller's shortcuts. */
export async function deleteToolbar(id: number): Promise<void> {
  await api.post(EP.roiIndexDeleteToolBar, { id });
}

export function useDeleteToolbar() {
  return useIdentifyMutation(deleteToolbar);
}
