import { CONSOLE_ROUTES, type Role, type RouteRoles } from '@ipp/contracts';

/** Role list of a path; undefined = open to every signed-in role (spec §2 "no role list"). */
export type RolesOf = (path: string) => readonly Role[] | undefined;

const DEFAULTS: ReadonlyMap<string, readonly Role[] | null> = new Map(CONSOLE_ROUTES.map((route) => [route.path, route.roles]));

/** The built-in lists of '@ipp/contracts', overridden path by path by the server's role table. */
export function rolesResolver(serverRoutes: readonly RouteRoles[] = []): RolesOf {
  const lists = new Map(DEFAULTS);
  for (const route of serverRoutes) lists.set(route.path, route.roles);
  return (path) => lists.get(path) ?? undefined;
}

export const defaultRolesOf: RolesOf = rolesResolver();
