import type { ChangePasswordBody } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

/** Ends every other session of the user; this one stays signed in. The form reports failures. */
export async function changePassword(body: ChangePasswordBody): Promise<void> {
  await api.post(EP.accountChangePassWd, body, { silent: true });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
