import { useEffect } from 'react';
import { useUserInfo } from '@/api/get-user-info';
import { useSession } from '@/hooks/use-session';
import { updateSession } from '@/lib/session';

/** user-info is the server's word on role and demo flag; the stored copies follow it. */
export function useSessionSync(): void {
  const { data: user } = useUserInfo();
  const { role, demo } = useSession();
  useEffect(() => {
    if (!user) return;
    if (user.role !== role || user.demo !== demo) updateSession({ role: user.role, demo: user.demo });
  }, [user, role, demo]);
}
