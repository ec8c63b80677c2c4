import type { ConsolePath } from '@ipp/contracts';

/** i18n key of each console page's title; shared by the router, the menu and the role table. */
export const ROUTE_TITLE_KEYS: Readonly<Record<ConsolePath, string>> = {
  '/home': 'route.home',
  '/about': 'route.about',
  '/manage/group': 'route.teams',
  '/manage/system': 'route.gui',
  '/manage/user': 'route.users',
  '/manage/user_edit': 'route.userEdit',
  '/system/config': 'route.systemConfig',
  '/system/account': 'route.account',
  '/system/role': 'route.roles',
  '/manage/ipp': 'route.ipps',
  '/manage/ipp_edit': 'route.ippEdit',
  '/ipp/ipp-view': 'route.ippView',
  '/ipp/ipp-image-detail': 'route.ippImageDetail',
  '/ipp/ipp-view-detail': 'route.ippViewDetail',
  '/identify': 'route.identify',
  '/alarms': 'route.alarms',
};
