import type { UserInfo } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { loadShellSchemas, parseShellData } from './parse-shell-data';
import * as EP from '@ipp/contracts/endpoints';

// Shared by the header, the home page and the guard, so it lives here rather than in one feature.
export const userInfoQueryKey = ['auth', 'user-info'] as const;

export async function getUserInfo(options: { token?: string; signal?: AbortSignal } = {}): Promise<UserInfo> {
  void loadShellSchemas();
  return parseShellData((s) => s.UserInfoSchema, await api.get(EP.wyrbacLoginUserInfo, options));
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
