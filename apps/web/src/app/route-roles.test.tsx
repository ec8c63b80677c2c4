import { CONSOLE_PATHS, type Role, type RoleTable } from '@ipp/contracts';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/i18n';
import { defaultRolesOf, rolesResolver } from '@/lib/route-roles';
import { callsTo, mockServer, pageEnvelope, signIn, USER_INFO } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { buildMenu } from './layout/menu';
import { APP_ROUTES } from './routes';
import { appRouteObjects } from './router';

const PLAIN_USER = { ...USER_INFO, id: 7, account: 'alice', name: 'Alice', roles: ['user'], role: 'user' };
const ADMINS: Role[] = ['superadmin', 'administrator'];

/** The server took /identify away from users and gave them /manage/group. */
const EDITED_TABLE: RoleTable = {
  roles: [],
  routes: [
    { path: '/identify', roles: ADMINS },
    { path: '/manage/group', roles: null },
  ],
};

/** The identify workspace of a user whose team has nothing yet. */
const EMPTY_IDENTIFY = {
  '/api/roi/categorys': () => okEnvelope([{ id: -4, key: 'favorite', count: 0, can_create: false }]),
  '/api/ipp/index': () => pageEnvelope([]),
  '/api/roi-index/index': () => okEnvelope([]),
  '/api/roi-index/tool-bar': () => okEnvelope([]),
  '/api/roi/index': () => okEnvelope({ items: [], next: null, count_capped: false }),
  '/api/roi/actions': () => okEnvelope({ actions: [], reason: 'role' }),
  // The class list: unanswered, it failed like a dead network a moment later, and a slow run saw its error message.
  '/api/tool/sys-init': () => okEnvelope([]),
};

beforeEach(async () => {
  await setLanguage('zh');
});

describe('role lists', () => {
  it('has one console route per contract path, so defaults cannot drift from the server', () => {
    expect(APP_ROUTES.map((route) => route.path).sort()).toEqual([...CONSOLE_PATHS].sort());
  });

  it('takes the server list of a path over the built-in one and keeps defaults elsewhere', () => {
    const rolesOf = rolesResolver(EDITED_TABLE.routes);
    expect(defaultRolesOf('/identify')).toBeUndefined();
    expect(rolesOf('/identify')).toEqual(ADMINS);
    expect(defaultRolesOf('/manage/group')).toEqual(ADMINS);
    expect(rolesOf('/manage/group')).toBeUndefined();
    expect(rolesOf('/system/role')).toEqual(ADMINS);
  });

  it('builds the menu from the server lists', () => {
    const visible = buildMenu('user', rolesResolver(EDITED_TABLE.routes)).flatMap((node) =>
      node.children ? node.children.map((child) => child.key) : [node.key],
    );
    expect(visible).toContain('/manage/group');
    expect(visible).not.toContain('/identify');
    // Admins keep every entry whatever the lists say.
    expect(buildMenu('administrator', rolesResolver(EDITED_TABLE.routes)).map((node) => node.key)).toContain('/identify');
  });
});

describe('guard with the server role table', () => {
  it('sends a user who lost a page to /403 when the page loads', async () => {
    mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope(PLAIN_USER),
      '/api/setting/get-role': () => okEnvelope(EDITED_TABLE),
    });
    signIn('user');
    const { router } = renderRoutes(appRouteObjects, ['/identify']);
    expect(await screen.findByText('抱歉，您无权访问此页面')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/403');
  });

  it('lets a user open a page the server opened to users, and shows it in the menu', async () => {
    mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope(PLAIN_USER),
      '/api/setting/get-role': () => okEnvelope(EDITED_TABLE),
      '/api/group/index': () => pageEnvelope([]),
    });
    signIn('user');
    const { router } = renderRoutes(appRouteObjects, ['/manage/group']);
    expect(await screen.findByTestId('team-search')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/group');
    const menu = screen.getByTestId('sidebar-menu');
    expect(menu.textContent).toContain('团队管理');
    expect(menu.textContent).not.toContain('识别管理');
  });

  it('falls back to the built-in lists when the table cannot be read', async () => {
    const fetchMock = mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope(PLAIN_USER),
      '/api/setting/get-role': () => new Response('bad gateway', { status: 502 }),
      ...EMPTY_IDENTIFY,
    });
    signIn('user');
    const { router } = renderRoutes(appRouteObjects, ['/manage/group']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
    await router.navigate('/identify');
    expect(await screen.findByTestId('identify-page')).toBeTruthy();
    // Once: a failed table is not fetched again by every component that mounts.
    expect(callsTo(fetchMock, '/api/setting/get-role')).toHaveLength(1);
    expect(document.querySelector('.ant-message-notice')).toBeNull();
  });
});
