import { LoginResultSchema, type LoginBody, type LoginResult } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';

export async function login(body: LoginBody): Promise<LoginResult> {
  const data = await api.post<unknown>('/wyrbac/login/login', body);
  // The login form shows every failure inline, including a malformed answer.
  return parseData(LoginResultSchema, data, { silent: true });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
