import { api } from '@/api/client';

// Signing out must not hang on a dead server; the local session is cleared either way.
const LOGOUT_TIMEOUT_MS = 5_000;

export async function logout(): Promise<void> {
  await api.get<unknown>('/wyrbac/login/logout', { timeoutMs: LOGOUT_TIMEOUT_MS });
}
