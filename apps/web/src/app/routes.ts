import {
  AimOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  InfoCircleOutlined,
  SettingOutlined,
  TeamOutlined,
  TranslationOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { Role } from '@ipp/contracts';
import type { ComponentType } from 'react';
import { lazyPage, type LazyPage } from '@/lib/lazy-with-retry';
import type { MenuPlacement, PageProps, RouteMeta } from '@/lib/route-meta';

export interface AppRoute extends RouteMeta {
  page: LazyPage<PageProps>;
  icon?: ComponentType;
}

export interface MenuGroup {
  key: Exclude<MenuPlacement, 'root'>;
  titleKey: string;
  icon: ComponentType;
}

const ADMINS: readonly Role[] = ['superadmin', 'administrator'];

const homePage = lazyPage<PageProps>(() => import('@/features/home/pages/home-page').then((m) => ({ default: m.HomePage })));
const aboutPage = lazyPage<PageProps>(() => import('@/features/about/pages/about-page').then((m) => ({ default: m.AboutPage })));
// Replaced route by route as later issues build the real screens.
const pendingPage = lazyPage<PageProps>(() =>
  import('@/features/pending/pages/pending-page').then((m) => ({ default: m.PendingPage })),
);

export const MENU_GROUPS: readonly MenuGroup[] = [
  { key: 'monitoring', titleKey: 'menu.monitoring', icon: EnvironmentOutlined },
  { key: 'system', titleKey: 'menu.system', icon: SettingOutlined },
];

/**
 * Every page inside the main layout, in menu order. The `roles` here are the defaults; a later
 * issue may load them from GET /setting/get-role. Menu visibility follows the guard: a role sees an
 * entry only if canAccess() lets it open that route.
 */
export const APP_ROUTES: readonly AppRoute[] = [
  { path: '/home', titleKey: 'route.home', keepAlive: true, menu: 'root', icon: DashboardOutlined, page: homePage },
  { path: '/manage/ipp', titleKey: 'route.ipps', menu: 'monitoring', page: pendingPage },
  { path: '/ipp/ipp-view', titleKey: 'route.ippView', menu: 'monitoring', page: pendingPage },
  { path: '/ipp/ipp-view-detail', titleKey: 'route.ippViewDetail', keepAlive: true, menu: 'monitoring', page: pendingPage },
  { path: '/identify', titleKey: 'route.identify', menu: 'root', icon: AimOutlined, page: pendingPage },
  { path: '/system/config', titleKey: 'route.systemConfig', roles: ADMINS, menu: 'system', page: pendingPage },
  { path: '/system/account', titleKey: 'route.account', menu: 'system', page: pendingPage },
  { path: '/system/role', titleKey: 'route.roles', roles: ADMINS, menu: 'system', page: pendingPage },
  { path: '/manage/system', titleKey: 'route.gui', roles: ADMINS, menu: 'root', icon: TranslationOutlined, page: pendingPage },
  { path: '/manage/group', titleKey: 'route.teams', roles: ADMINS, menu: 'root', icon: TeamOutlined, page: pendingPage },
  { path: '/manage/user', titleKey: 'route.users', roles: ADMINS, menu: 'root', icon: UserOutlined, page: pendingPage },
  { path: '/about', titleKey: 'route.about', keepAlive: true, menu: 'root', icon: InfoCircleOutlined, page: aboutPage },
  { path: '/manage/user_edit', titleKey: 'route.userEdit', roles: ADMINS, activeMenu: '/manage/user', page: pendingPage },
  { path: '/manage/ipp_edit', titleKey: 'route.ippEdit', activeMenu: '/manage/ipp', page: pendingPage },
  { path: '/ipp/ipp-image-detail', titleKey: 'route.ippImageDetail', activeMenu: '/ipp/ipp-view', page: pendingPage },
];

const BY_PATH = new Map(APP_ROUTES.map((route) => [route.path, route]));

export function findRoute(path: string): AppRoute | undefined {
  return BY_PATH.get(path);
}

/** Role list of a route; the single place a later issue swaps for the server's role table. */
export function routeRolesOf(path: string): readonly string[] | undefined {
  return BY_PATH.get(path)?.roles;
}
