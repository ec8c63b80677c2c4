import { UserInfoSchema, type UserInfo } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from './client';

// Shared by the header, the home page and the guard, so it lives here rather than in one feature.
export const userInfoQueryKey = ['auth', 'user-info'] as const;

export async function getUserInfo(options: { token?: string; signal?: AbortSignal } = {}): Promise<UserInfo> {
  return parseData(UserInfoSchema, await api.get<unknown>('/wyrbac/login/user-info', options));
}

export function userInfoQueryOptions() {
  return queryOptions({
    queryKey: userInfoQueryKey,
    queryFn: ({ signal }) => getUserInfo({ signal }),
    staleTime: 5 * 60_000,
  });
}

export function useUserInfo() {
  return useQuery(userInfoQueryOptions());
}
