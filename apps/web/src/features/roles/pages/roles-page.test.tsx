import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { callsTo, lastBody, mockServer, signIn, USER_INFO } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';

const ADMINS = ['superadmin', 'administrator'];
const TABLE = {
  roles: [
    { role: 'superadmin', name_zh: '超级管理员', name_en: 'Super Admin' },
    { role: 'administrator', name_zh: '团队管理员', name_en: 'Team Admin' },
    { role: 'user', name_zh: '普通用户', name_en: 'User' },
  ],
  routes: [
    { path: '/identify', roles: null },
    { path: '/system/config', roles: ADMINS },
  ],
};

function server(role = 'superadmin') {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role }),
    '/api/setting/get-role': () => okEnvelope(TABLE),
    '/api/setting/save-role': (_url, init) => {
      const { routes } = JSON.parse(String(init?.body)) as { routes: { path: string; roles: string[] | null }[] };
      return okEnvelope({ ...TABLE, routes: [...TABLE.routes.filter((r) => !routes.some((c) => c.path === r.path)), ...routes] });
    },
  });
}

const box = (path: string) => screen.getByTestId(`role-check-${path}-user`) as HTMLInputElement;

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('role management', () => {
  it('shows the three roles in both languages and the user column from the server lists', async () => {
    server();
    renderRoutes(appRouteObjects, ['/system/role']);
    await screen.findByTestId('role-check-/identify-user');
    expect(screen.getByText('Team Admin')).toBeTruthy();
    expect(box('/identify').checked).toBe(true);
    expect(box('/system/config').checked).toBe(false);
    // Not in the server's answer: the built-in list of the contract.
    expect(box('/manage/group').checked).toBe(false);
    expect(box('/system/account').checked).toBe(true);
    const fixed = screen.getAllByRole('checkbox', { name: /超级管理员|团队管理员/ }) as HTMLInputElement[];
    expect(fixed.length).toBeGreaterThan(0);
    expect(fixed.every((input) => input.checked && input.disabled)).toBe(true);
  });

  it('saves only the changed routes with "Save successful"', async () => {
    const fetchMock = server();
    renderRoutes(appRouteObjects, ['/system/role']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('role-check-/identify-user'));
    await user.click(box('/manage/system'));
    await user.click(box('/about'));
    await user.click(box('/about'));
    await user.click(screen.getByTestId('role-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/setting/save-role')).toEqual({
      routes: [
        { path: '/identify', roles: ADMINS },
        { path: '/manage/system', roles: null },
      ],
    });
    await waitFor(() => expect(box('/identify').checked).toBe(false));
    expect((screen.getByTestId('role-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('cannot give users a page whose data the server gives only to administrators, and says why', async () => {
    // Even a list stored before says users may: the box is off, disabled, and explains.
    mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
      '/api/setting/get-role': () => okEnvelope({ ...TABLE, routes: [...TABLE.routes, { path: '/manage/group', roles: null }] }),
    });
    renderRoutes(appRouteObjects, ['/system/role']);
    await screen.findByTestId('role-check-/identify-user');
    for (const path of ['/manage/group', '/manage/user', '/manage/user_edit', '/system/config']) {
      expect(box(path).disabled, path).toBe(true);
      expect(box(path).checked, path).toBe(false);
    }
    expect(box('/manage/group').getAttribute('aria-description')).toContain('GET /group/index');
    expect(box('/manage/group').getAttribute('aria-description')).toContain('仅对管理员开放');
    // Said on the page, not only on hover.
    expect(screen.getByTestId('role-admin-data-/manage/group').textContent).toContain('仅限管理员');
    expect(screen.queryByTestId('role-admin-data-/identify')).toBeNull();
    expect(box('/identify').disabled).toBe(false);
    expect(box('/manage/system').disabled).toBe(false);
    // A user opens the instrument form read-only: it can be granted.
    expect(box('/manage/ipp_edit').disabled).toBe(false);
  });

  it('shows an administrator the table read-only', async () => {
    signIn('administrator');
    const fetchMock = server('administrator');
    renderRoutes(appRouteObjects, ['/system/role']);
    await screen.findByTestId('role-check-/identify-user');
    expect(box('/identify').disabled).toBe(true);
    expect(screen.queryByTestId('role-save')).toBeNull();
    expect(callsTo(fetchMock, '/api/setting/save-role')).toHaveLength(0);
  });
});
