import type { IdBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { ippsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** A refusal (another team's instrument, a user's role) is toasted by the client. */
export async function deleteIpp(body: IdBody): Promise<void> {
  await api.post(EP.ippDelete, body);
}

export function useDeleteIpp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteIpp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ippsQueryKey }),
  });
}
