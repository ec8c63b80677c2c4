import { api } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';

/** POST /roi-index/delete-tool-bar: one of the caller's shortcuts. */
export async function deleteToolbar(id: number): Promise<void> {
  await api.post<unknown>('/roi-index/delete-tool-bar', { id });
}

export function useDeleteToolbar() {
  return useIdentifyMutation(deleteToolbar);
}
