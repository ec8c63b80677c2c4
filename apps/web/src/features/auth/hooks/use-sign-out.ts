import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clearSession } from '@/lib/session';
import { LOGIN_PATH } from '@/lib/redirect';
import { logout } from '../api/logout';

export type SignOutReason = 'idle';

/** Location state the login page reads to explain an automatic sign-out. */
export interface SignedOutState {
  reason: SignOutReason;
  /** The idle limit that applied, for the login page's explanation. */
  minutes?: number;
}

export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (reason?: SignOutReason, minutes?: number) => {
      try {
        await logout();
      } catch {
        // Spec §4: the server call may fail; the local session is ended regardless.
      }
      const state: SignedOutState | null = reason ? { reason, minutes } : null;
      // Render /login first so the guard never sees the half-cleared session and redirects on its own.
      await navigate(LOGIN_PATH, { replace: true, flushSync: true, state });
      clearSession();
      queryClient.clear();
    },
    [navigate, queryClient],
  );
}
