/** Every localStorage key the console uses, in one place so tabs, tests and docs agree. */
export const STORAGE_KEYS = {
  token: 'token',
  role: 'role',
  demo: 'demo',
  language: 'language',
  size: 'size',
  apiHost: 'apiHost',
  lastActivity: 'lastActivity',
} as const;

/** Cookie holding the sidebar state: '1' collapsed, '0' open (spec §9). */
export const SIDEBAR_COOKIE = 'sidebarStatus';
