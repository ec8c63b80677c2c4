import { useCallback } from 'react';
import { useIdleTimer } from './use-idle-timer';
import { useSignOut } from './use-sign-out';

export function useIdleLogout(): void {
  const signOut = useSignOut();
  useIdleTimer(useCallback(() => void signOut('idle'), [signOut]));
}
