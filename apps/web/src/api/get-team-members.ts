import { UserSchema, type User } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { getPage } from './get-page';
import { usersQueryKey } from './query-keys';
import * as EP from '@ipp/contracts/endpoints';

const UserListSchema = UserSchema.array();

/**
 * The people of a team (administrators and the superadmin may list them; GET /user/index), for choosing one in a
 * filter ("validated by"). At most 100: a team is a few dozen people.
 */
export function useTeamMembers(groupId: number | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [...usersQueryKey, 'members', groupId ?? null],
    queryFn: async ({ signal }): Promise<User[]> =>
      (await getPage(EP.userIndex, UserListSchema, { page: 1, limit: 100, group_id: groupId ?? undefined }, { signal })).items,
    enabled,
    staleTime: 5 * 60_000,
  });
}
