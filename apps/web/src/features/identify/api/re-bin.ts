import { api } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-group/re-bin: restore (re) or purge (delete) ROIs of the recycle bin; administrators. */
export async function reBin(body: { action: 're' | 'delete'; roi_ids: number[] }): Promise<void> {
  await api.post(EP.roiGroupReBin, body);
}

export function useReBin() {
  return useIdentifyMutation(reBin);
}
