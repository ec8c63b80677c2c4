import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setApiNotifier } from '@/api/notifier';
import { LOGIN_PATH, loginPathFor } from '@/lib/redirect';

/** Connects the transport's error reports to antd messages and its sign-outs to the router. */
export function useApiNotifier(): void {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(
    () =>
      setApiNotifier({
        error: (content, key) => void message.error({ content, key }),
        signedOut: () => {
          const { pathname, search } = window.location;
          if (pathname === LOGIN_PATH) return;
          // flushSync: show /login in the same frame the session disappears, before the guard reacts.
          void navigate(loginPathFor(pathname, search), { replace: true, flushSync: true });
          // The signed-out user's data must not show to whoever signs in next.
          queryClient.clear();
        },
      }),
    [message, navigate, queryClient],
  );
}
