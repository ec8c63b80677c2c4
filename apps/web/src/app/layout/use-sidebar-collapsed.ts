import { useCallback, useState } from 'react';
import { getCookie, setCookie } from '@/lib/cookie';
import { SIDEBAR_COOKIE } from '@/lib/storage-keys';

/** Spec §9: the sidebar state is kept in a cookie ('1' collapsed, '0' open). */
export function useSidebarCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => getCookie(SIDEBAR_COOKIE) === '1');
  const toggle = useCallback(() => {
    setCollapsed((was) => {
      setCookie(SIDEBAR_COOKIE, was ? '0' : '1');
      return !was;
    });
  }, []);
  return [collapsed, toggle];
}
