import { UserSchema, type User } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { usersQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

export async function getUser(id: number, options: { signal?: AbortSignal } = {}): Promise<User> {
  return parseData(UserSchema, await api.get(EP.userView, { query: { id }, signal: options.signal }));
}

export function userQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...usersQueryKey, 'view', id],
    queryFn: ({ signal }) => getUser(id, { signal }),
    // The form starts from what the server holds now, not from a copy cached minutes ago.
    staleTime: 0,
  });
}

export function useUser(id: number | null) {
  return useQuery({ ...userQueryOptions(id ?? 0), enabled: id !== null });
}
