import type { UserInfo, UserSettingsSaveBody } from '@ipp/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { getSession } from '@/lib/session';
import { api } from './client';
import { userInfoQueryKey } from './get-user-info';
import * as EP from '@ipp/contracts/endpoints';

/**
 * POST /setting/save-user: the signed-in user's own language and component size follow the account (user-info
 * answers them at the next sign-in, in any browser). The read-only demo account keeps them in this browser only.
 * Types only from the contract: the header uses this, and zod stays out of the shell.
 */
export async function saveUserSettings(queryClient: QueryClient, body: UserSettingsSaveBody): Promise<void> {
  const { token, demo } = getSession();
  if (!token || demo) return;
  const saved = await api.post(EP.settingSaveUser, body);
  queryClient.setQueryData<UserInfo>(userInfoQueryKey, (user) =>
    user ? { ...user, language: saved.language, size: saved.size } : user,
  );
}
