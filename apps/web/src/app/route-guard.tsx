import { useLayoutEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { dropTokenFromAddressBar } from '@/lib/redirect';
import { useSession } from '@/hooks/use-session';
import { DeepLinkSignIn } from './deep-link-sign-in';
import { canAccess, decideAccess } from './guard';
import { useCurrentRoute } from './use-current-route';
import { useRouteRoles } from './use-route-roles';

/** Applies decideAccess() to every main-layout route, again whenever the session or the role table changes. */
export function RouteGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const session = useSession();
  const route = useCurrentRoute();
  const { settled, rolesOf } = useRouteRoles();
  // A sign-in link's token leaves the address bar before anything else loads (the sign-in keeps it in memory).
  useLayoutEffect(() => {
    dropTokenFromAddressBar();
  }, [location.search]);
  const decision = decideAccess({
    pathname: location.pathname,
    search: location.search,
    token: session.token,
    role: session.role,
    routeRoles: route ? rolesOf(route.path) : undefined,
  });

  // A role the lists can limit waits for the server's lists: a page it lost never shows, even briefly,
  // and a page it gained is not refused on the built-in lists.
  const waiting = !settled && !canAccess(session.role, []);

  if (decision.kind === 'adopt-token') return <DeepLinkSignIn token={decision.token} />;
  if (decision.kind === 'redirect' && !(waiting && decision.to === '/403')) return <Navigate to={decision.to} replace />;
  if (waiting) return <PageLoading fullscreen />;
  return children;
}
