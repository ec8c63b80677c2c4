import { loginPathFor, LOGIN_PATH } from '@/lib/redirect';

/** Spec §2/§6: these roles pass every route check. */
const PRIVILEGED_ROLES: readonly string[] = ['superadmin', 'administrator'];

export function canAccess(role: string | null, routeRoles: readonly string[] | undefined): boolean {
  if (!role) return false;
  if (PRIVILEGED_ROLES.includes(role)) return true;
  return routeRoles === undefined || routeRoles.includes(role);
}

export interface AccessRequest {
  pathname: string;
  search: string;
  token: string | null;
  role: string | null;
  routeRoles: readonly string[] | undefined;
}

export type AccessDecision =
  | { kind: 'allow' }
  /** A deep link carrying id and token: sign in with that token, then check again. */
  | { kind: 'adopt-token'; token: string }
  | { kind: 'redirect'; to: string };

/** The route guard of spec §2, in its order. */
export function decideAccess({ pathname, search, token, role, routeRoles }: AccessRequest): AccessDecision {
  if (pathname === LOGIN_PATH) return { kind: 'allow' };
  if (!token) {
    const query = new URLSearchParams(search);
    const linkToken = query.get('token');
    if (query.get('id') && linkToken) return { kind: 'adopt-token', token: linkToken };
    return { kind: 'redirect', to: loginPathFor(pathname, search) };
  }
  if (!role) return { kind: 'redirect', to: LOGIN_PATH };
  return canAccess(role, routeRoles) ? { kind: 'allow' } : { kind: 'redirect', to: '/403' };
}
