import type { LoginBody, LoginResult } from '@ipp/contracts';
import { useCallback, useState } from 'react';
import { api } from '@/api/client';
import { loadShellSchemas, parseShellData } from '@/api/parse-shell-data';
import * as EP from '@ipp/contracts/endpoints';

export async function login(body: LoginBody): Promise<LoginResult> {
  void loadShellSchemas();
  const data = await api.post(EP.wyrbacLoginLogin, body);
  // The login form shows every failure inline, including a malformed answer.
  return parseShellData((s) => s.LoginResultSchema, data, { silent: true });
}

/**
 * The sign-in call's state for the form: pending, the last failure, a reset. A few lines of state rather than
 * TanStack Query's mutation, which would put its mutation code in the sign-in page's bundle (docs/benchmarks.md
 * "The browser": the shell's budget); the pages after sign-in load it with their own mutations.
 */
export function useLogin() {
  const [state, setState] = useState<{ isPending: boolean; error: unknown }>({ isPending: false, error: null });
  const mutate = useCallback((body: LoginBody, options: { onSuccess?: (result: LoginResult) => void } = {}) => {
    setState({ isPending: true, error: null });
    login(body).then(
      (result) => {
        setState({ isPending: false, error: null });
        options.onSuccess?.(result);
      },
      (error: unknown) => setState({ isPending: false, error }),
    );
  }, []);
  const reset = useCallback(() => setState((s) => (s.error === null ? s : { ...s, error: null })), []);
  return { ...state, mutate, reset };
}
