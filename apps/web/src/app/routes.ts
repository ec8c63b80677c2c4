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
import type { ConsolePath } from '@ipp/contracts';
import type { ComponentType } from 'react';
import { lazyPage, type LazyPage } from '@/lib/lazy-with-retry';
import type { MenuPlacement, PageProps, RouteMeta } from '@/lib/route-meta';
import { ROUTE_TITLE_KEYS } from '@/lib/route-titles';

export interface AppRoute extends RouteMeta {
  path: ConsolePath;
  page: LazyPage<PageProps>;
  icon?: ComponentType;
}

export interface MenuGroup {
  key: Exclude<MenuPlacement, 'root'>;
  titleKey: string;
  icon: ComponentType;
}

type PageModule = Promise<{ default: ComponentType<PageProps> }>;
const page = (load: () => PageModule) => lazyPage<PageProps>(load);

const homePage = page(() => import('@/features/home/pages/home-page').then((m) => ({ default: m.HomePage })));
const aboutPage = page(() => import('@/features/about/pages/about-page').then((m) => ({ default: m.AboutPage })));
const teamsPage = page(() => import('@/features/teams/pages/teams-page').then((m) => ({ default: m.TeamsPage })));
const usersPage = page(() => import('@/features/users/pages/users-page').then((m) => ({ default: m.UsersPage })));
const userEditPage = page(() => import('@/features/users/pages/user-edit-page').then((m) => ({ default: m.UserEditPage })));
const accountPage = page(() => import('@/features/account/pages/account-page').then((m) => ({ default: m.AccountPage })));
const rolesPage = page(() => import('@/features/roles/pages/roles-page').then((m) => ({ default: m.RolesPage })));
const settingsPage = page(() => import('@/features/settings/pages/settings-page').then((m) => ({ default: m.SettingsPage })));
const interfacePage = page(() => import('./pages/interface-page').then((m) => ({ default: m.InterfacePage })));
const ippsPage = page(() => import('@/features/ipps/pages/ipps-page').then((m) => ({ default: m.IppsPage })));
const ippEditPage = page(() => import('@/features/ipps/pages/ipp-edit-page').then((m) => ({ default: m.IppEditPage })));
const stationPreviewPage = page(() =>
  import('@/features/station-preview/pages/station-preview-page').then((m) => ({ default: m.StationPreviewPage })),
);
const stationDetailPage = page(() =>
  import('@/features/station-detail/pages/station-detail-page').then((m) => ({ default: m.StationDetailPage })),
);
const imageDetailPage = page(() =>
  import('@/features/image-detail/pages/image-detail-page').then((m) => ({ default: m.ImageDetailPage })),
);
const alarmsPage = page(() => import('@/features/alarms/pages/alarms-page').then((m) => ({ default: m.AlarmsPage })));
const identifyPage = page(() => import('@/features/identify/pages/identify-page').then((m) => ({ default: m.IdentifyPage })));

export const MENU_GROUPS: readonly MenuGroup[] = [
  { key: 'monitoring', titleKey: 'menu.monitoring', icon: EnvironmentOutlined },
  { key: 'system', titleKey: 'menu.system', icon: SettingOutlined },
];

function route(path: ConsolePath, rest: Omit<AppRoute, 'path' | 'titleKey'>): AppRoute {
  return { path, titleKey: ROUTE_TITLE_KEYS[path], ...rest };
}

/**
 * Every page inside the main layout, in menu order. Who may open each one is not declared here: the
 * defaults are CONSOLE_ROUTES of '@ipp/contracts' (shared with the server) and the server's role table
 * overrides them (see useRouteRoles). Menu visibility follows the guard through canAccess().
 */
export const APP_ROUTES: readonly AppRoute[] = [
  route('/home', { keepAlive: true, menu: 'root', icon: DashboardOutlined, page: homePage }),
  route('/manage/ipp', { menu: 'monitoring', page: ippsPage }),
  route('/ipp/ipp-view', { menu: 'monitoring', page: stationPreviewPage }),
  route('/ipp/ipp-view-detail', { keepAlive: true, menu: 'monitoring', page: stationDetailPage }),
  route('/alarms', { menu: 'monitoring', page: alarmsPage }),
  route('/identify', { menu: 'root', icon: AimOutlined, page: identifyPage }),
  route('/system/config', { menu: 'system', page: settingsPage }),
  route('/system/account', { menu: 'system', page: accountPage }),
  route('/system/role', { menu: 'system', page: rolesPage }),
  route('/manage/system', { menu: 'root', icon: TranslationOutlined, page: interfacePage }),
  route('/manage/group', { menu: 'root', icon: TeamOutlined, page: teamsPage }),
  route('/manage/user', { menu: 'root', icon: UserOutlined, page: usersPage }),
  route('/about', { keepAlive: true, menu: 'root', icon: InfoCircleOutlined, page: aboutPage }),
  route('/manage/user_edit', { activeMenu: '/manage/user', page: userEditPage }),
  route('/manage/ipp_edit', { activeMenu: '/manage/ipp', page: ippEditPage }),
  route('/ipp/ipp-image-detail', { activeMenu: '/ipp/ipp-view', page: imageDetailPage }),
];

const BY_PATH = new Map<string, AppRoute>(APP_ROUTES.map((r) => [r.path, r]));

export function findRoute(path: string): AppRoute | undefined {
  return BY_PATH.get(path);
}
