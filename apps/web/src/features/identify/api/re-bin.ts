import { api } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';

/** POST /roi-group/re-bin: restore (re) or purge (delete) ROIs of the recycle bin; administrators. */
export async function reBin(body: { action: 're' | 'delete'; roi_ids: number[] }): Promise<void> {
  await api.post<unknown>('/roi-group/re-bin', body);
}

export function useReBin() {
  return useIdentifyMutation(reBin);
}
