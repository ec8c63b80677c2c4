import { useMemo } from 'react';
import { useRoleTable } from '@/api/get-role-table';
import { useSession } from '@/hooks/use-session';
import { defaultRolesOf, rolesResolver, type RolesOf } from '@/lib/route-roles';

export interface RouteRoles {
  /** False while the signed-in user's role table is still loading. */
  settled: boolean;
  rolesOf: RolesOf;
}

/**
 * The role lists the guard and the menu apply: the server's table (GET /setting/get-role) for a
 * signed-in user, the built-in defaults before sign-in or when the table cannot be read.
 */
export function useRouteRoles(): RouteRoles {
  const { token, role } = useSession();
  const signedIn = Boolean(token && role);
  // Silent: a failure falls back to the defaults; the server checks every call anyway.
  const table = useRoleTable({ enabled: signedIn, silent: true });
  const routes = table.data?.routes;
  const rolesOf = useMemo(() => (routes ? rolesResolver(routes) : defaultRolesOf), [routes]);
  return { settled: !signedIn || table.isSuccess || table.isError, rolesOf };
}
