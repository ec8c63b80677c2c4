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

/** The search string without a deep-link token ('' or '?…'); unchanged when it has none. */
export function searchWithoutToken(search: string): string {
  const params = new URLSearchParams(search);
  if (!params.has('token')) return search;
  params.delete('token');
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * Takes a sign-in link's ?token= out of the address bar at once (history.replaceState, keeping the router's history
 * state), so it is not left in the address, the history or a bookmark while the link's sign-in runs; the server's
 * Referrer-Policy keeps it out of Referer headers. Answers whether there was one.
 */
export function dropTokenFromAddressBar(win: Pick<Window, 'location' | 'history'> = window): boolean {
  const { pathname, search, hash } = win.location;
  const clean = searchWithoutToken(search);
  if (clean === search) return false;
  win.history.replaceState(win.history.state, '', `${pathname}${clean}${hash}`);
  return true;
}
