import type { Role } from './session.ts';

/**
 * Every page of the console inside the main layout (spec §2) with its default role list. A route with
 * no list is open to every signed-in role; superadmin and administrator pass every route whatever the list
 * says (spec §2), so the lists only decide what the role `user` may open. A superadmin edits them on
 * /system/role; the server keeps the edited lists (GET /setting/get-role).
 */
export const CONSOLE_ROUTES = [
  { path: '/home', roles: null },
  { path: '/about', roles: null },
  { path: '/manage/group', roles: ['superadmin', 'administrator'] },
  { path: '/manage/system', roles: ['superadmin', 'administrator'] },
  { path: '/manage/user', roles: ['superadmin', 'administrator'] },
  { path: '/manage/user_edit', roles: ['superadmin', 'administrator'] },
  { path: '/system/config', roles: ['superadmin', 'administrator'] },
  { path: '/system/account', roles: null },
  { path: '/system/role', roles: ['superadmin', 'administrator'] },
  { path: '/manage/ipp', roles: null },
  { path: '/manage/ipp_edit', roles: null },
  { path: '/ipp/ipp-view', roles: null },
  { path: '/ipp/ipp-image-detail', roles: null },
  { path: '/ipp/ipp-view-detail', roles: null },
  { path: '/identify', roles: null },
  { path: '/alarms', roles: null },
] as const satisfies ReadonlyArray<{ path: string; roles: readonly Role[] | null }>;

export type ConsolePath = (typeof CONSOLE_ROUTES)[number]['path'];
export const CONSOLE_PATHS: readonly ConsolePath[] = CONSOLE_ROUTES.map((r) => r.path);

/**
 * Pages whose data the server gives only to superadmin and administrator, with the calls that decide it (a server
 * test checks them against each call's declared access). The role page cannot grant these to `user` (issue 20: a
 * user given /manage/group got "no permission" from every call): the server refuses such a grant, answers them as
 * not granted, and the role page shows their box disabled with the reason. (/manage/ipp_edit is not one: a user
 * opens it read-only, with what GET /site/ipp-one gives every signed-in role.)
 */
export const ADMIN_DATA_ROUTES: Partial<Record<ConsolePath, readonly string[]>> = {
  '/manage/group': ['GET /group/index'],
  '/manage/user': ['GET /user/index'],
  '/manage/user_edit': ['GET /user/view', 'POST /user/save'],
  '/system/config': ['GET /setting/index'],
};
