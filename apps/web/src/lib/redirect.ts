export const HOME_PATH = '/home';
export const LOGIN_PATH = '/login';

/** /login?redirect=<where the user was>, without a deep-link token so it never lands in history. */
export function loginPathFor(pathname: string, search = ''): string {
  if (pathname === LOGIN_PATH) return LOGIN_PATH;
  const params = new URLSearchParams(search);
  params.delete('token');
  const query = params.toString();
  const target = query ? `${pathname}?${query}` : pathname;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

/** Only in-app paths are followed after sign-in, so a crafted link cannot send the user elsewhere. */
export function safeRedirect(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return HOME_PATH;
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`)) return HOME_PATH;
  return raw;
}
