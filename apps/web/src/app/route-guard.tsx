import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '@/hooks/use-session';
import { DeepLinkSignIn } from './deep-link-sign-in';
import { decideAccess } from './guard';
import { routeRolesOf } from './routes';
import { useCurrentRoute } from './use-current-route';

/** Applies decideAccess() to every main-layout route, again whenever the session changes. */
export function RouteGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const session = useSession();
  const route = useCurrentRoute();
  const decision = decideAccess({
    pathname: location.pathname,
    search: location.search,
    token: session.token,
    role: session.role,
    routeRoles: route ? routeRolesOf(route.path) : undefined,
  });

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'adopt-token') return <DeepLinkSignIn token={decision.token} />;
  return children;
}
