import { useEffect } from 'react';
import { useUserInfo } from '@/api/get-user-info';
import { useSession } from '@/hooks/use-session';
import { getLanguage, setLanguage } from '@/i18n';
import { getComponentSize, setComponentSize } from '@/lib/component-size';
import { updateSession } from '@/lib/session';

/**
 * user-info is the server's word on role and demo flag; the stored copies follow it. The account's own language and
 * component size (POST /setting/save-user) apply when user-info brings a new value: after sign-in in another browser,
 * or when the user changed them elsewhere. A null (never chosen) leaves this browser's choice.
 */
export function useSessionSync(): void {
  const { data: user } = useUserInfo();
  const { role, demo } = useSession();
  useEffect(() => {
    if (!user) return;
    if (user.role !== role || user.demo !== demo) updateSession({ role: user.role, demo: user.demo });
  }, [user, role, demo]);

  const language = user?.language ?? null;
  useEffect(() => {
    if (language && language !== getLanguage()) void setLanguage(language).catch(() => undefined);
  }, [language]);

  const size = user?.size ?? null;
  useEffect(() => {
    if (size && size !== getComponentSize()) setComponentSize(size);
  }, [size]);
}
