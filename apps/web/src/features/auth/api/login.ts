import type { LoginBody, LoginResult } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api/client';
import { loadShellSchemas, parseShellData } from '@/api/parse-shell-data';

export async function login(body: LoginBody): Promise<LoginResult> {
  void loadShellSchemas();
  const data = await api.post<unknown>('/wyrbac/login/login', body);
  // The login form shows every failure inline, including a malformed answer.
  return parseShellData((s) => s.LoginResultSchema, data, { silent: true });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
