import { UserSchema, type User, type UserSaveBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { teamsQueryKey } from '@/api/get-teams';
import { usersQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** Create (no id; password required) or edit (with id; no password keeps it). The form reports failures. */
export async function saveUser(body: UserSaveBody): Promise<User> {
  return parseData(UserSchema, await api.post(EP.userSave, body, { silent: true }), { silent: true });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveUser,
    onSuccess: async () => {
      // Team rows count their members.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: usersQueryKey }),
        queryClient.invalidateQueries({ queryKey: teamsQueryKey }),
      ]);
    },
  });
}
