import { UserSchema, type User, type UserIndexQuery } from '@ipp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getPage, type Page } from '@/api/get-page';
import { usersQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const UserListSchema = UserSchema.array();

export function getUsers(query: Partial<UserIndexQuery>, options: { signal?: AbortSignal } = {}): Promise<Page<User>> {
  return getPage(EP.userIndex, UserListSchema, query, options);
}

export function usersQueryOptions(query: Partial<UserIndexQuery>) {
  return queryOptions({
    queryKey: [...usersQueryKey, 'list', query],
    queryFn: ({ signal }) => getUsers(query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(query: Partial<UserIndexQuery>) {
  return useQuery(usersQueryOptions(query));
}
