import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { LazyRoute } from '@/components/lazy-route';
import { lazyPage } from '@/lib/lazy-with-retry';
import { HOME_PATH, LOGIN_PATH } from '@/lib/redirect';
import { RootRoute } from './root-route';
import { RouteError } from './route-error';
import { RouteGuard } from './route-guard';
import { APP_ROUTES, type AppRoute } from './routes';

const loginPage = lazyPage<object>(() => import('@/features/auth/pages/login-page').then((m) => ({ default: m.LoginPage })));
const forbiddenPage = lazyPage<object>(() =>
  import('@/features/errors/pages/forbidden-page').then((m) => ({ default: m.ForbiddenPage })),
);
const notFoundPage = lazyPage<object>(() =>
  import('@/features/errors/pages/not-found-page').then((m) => ({ default: m.NotFoundPage })),
);
// The shell is its own chunk so the sign-in page loads without the menu, header and pages.
const mainLayout = lazyPage<{ kept: ReadonlyMap<string, ReactNode> }>(() =>
  import('./layout/main-layout').then((m) => ({ default: m.MainLayout })),
);

function pageElement(route: AppRoute): ReactNode {
  return <LazyRoute page={route.page} props={{ meta: route }} />;
}

const keptPages: ReadonlyMap<string, ReactNode> = new Map(
  APP_ROUTES.filter((route) => route.keepAlive).map((route) => [route.path, pageElement(route)]),
);

/** '/' goes to /home, keeping any query (a deep link's id and token). */
function RedirectHome() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: HOME_PATH, search }} replace />;
}

export const appRouteObjects: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <RedirectHome /> },
      { path: LOGIN_PATH, element: <LazyRoute page={loginPage} props={{}} fullscreen /> },
      { path: '/403', element: <LazyRoute page={forbiddenPage} props={{}} fullscreen /> },
      { path: '/404', element: <LazyRoute page={notFoundPage} props={{}} fullscreen /> },
      {
        element: (
          <RouteGuard>
            <LazyRoute page={mainLayout} props={{ kept: keptPages }} fullscreen />
          </RouteGuard>
        ),
        // Keep-alive pages are drawn by the layout itself (KeepAliveOutlet), so their route renders nothing.
        children: APP_ROUTES.map((route) => ({
          path: route.path,
          handle: route,
          element: route.keepAlive ? null : pageElement(route),
        })),
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRouteObjects);
}
