import { api } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

// Signing out must not hang on a dead server; the local session is cleared either way.
const LOGOUT_TIMEOUT_MS = 5_000;

export async function logout(): Promise<void> {
  await api.get(EP.wyrbacLoginLogout, { timeoutMs: LOGOUT_TIMEOUT_MS });
}
