import { useCallback } from 'react';
import { useSettingsInit } from '@/api/get-settings-init';
import { DEFAULT_SETTINGS } from '@/lib/contract-constants';
import { useIdleTimer } from './use-idle-timer';
import { useSignOut } from './use-sign-out';

/** Signs out after the configured idle minutes (system configuration; 30 until it has loaded). */
export function useIdleLogout(): void {
  const signOut = useSignOut();
  const minutes = useSettingsInit().data?.idle_minutes ?? DEFAULT_SETTINGS.idle_minutes;
  useIdleTimer(
    useCallback(() => void signOut('idle', minutes), [signOut, minutes]),
    minutes * 60_000,
  );
}
