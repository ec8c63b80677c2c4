import type { IdBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { teamsQueryKey } from '@/api/get-teams';
import * as EP from '@ipp/contracts/endpoints';

/** The server refuses (1001) while users are attached and says what is; the client shows that message. */
export async function deleteTeam(body: IdBody): Promise<void> {
  await api.post(EP.groupDelete, body);
}

export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeam,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamsQueryKey }),
  });
}
