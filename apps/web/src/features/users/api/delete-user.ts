import type { IdBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { teamsQueryKey } from '@/api/get-teams';
import { usersQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** Nobody deletes themselves or the last superadmin: the server refuses (1001) and the client shows why. */
export async function deleteUser(body: IdBody): Promise<void> {
  await api.post(EP.userDelete, body);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        queryClient.invalidateQueries({ queryKey: teamsQueryKey }),
      ]);
    },
  });
}
