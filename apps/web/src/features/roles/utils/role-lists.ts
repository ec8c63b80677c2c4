import { CONSOLE_ROUTES, type ConsolePath, type Role, type RouteRoles } from '@ipp/contracts';

/** superadmin and administrator pass every route (spec §2), so a list only ever decides for 'user'. */
export const ALWAYS_ALLOWED: readonly Role[] = ['superadmin', 'administrator'];

/** Whether the role 'user' may open a route under a list (null = everyone). */
export function userAllowed(roles: readonly Role[] | null | undefined): boolean {
  return roles == null || roles.includes('user');
}

/** The list written for a route when its 'user' box is set: null = every role; otherwise the admins only. */
export function listFor(userMay: boolean): Role[] | null {
  return userMay ? null : [...ALWAYS_ALLOWED];
}

/** The server's lists for every console route; a route it does not list keeps its built-in default. */
export function effectiveLists(serverRoutes: readonly RouteRoles[]): Map<ConsolePath, readonly Role[] | null> {
  const lists = new Map<ConsolePath, readonly Role[] | null>(CONSOLE_ROUTES.map((route) => [route.path, route.roles]));
  for (const route of serverRoutes) lists.set(route.path, route.roles);
  return lists;
}

/** Only the routes whose 'user' box differs from the server's list are sent. */
export function changedRoutes(
  current: ReadonlyMap<ConsolePath, readonly Role[] | null>,
  draft: ReadonlyMap<ConsolePath, boolean>,
): RouteRoles[] {
  const changes: RouteRoles[] = [];
  for (const [path, userMay] of draft) {
    if (userMay !== userAllowed(current.get(path))) changes.push({ path, roles: listFor(userMay) });
  }
  return changes;
}
