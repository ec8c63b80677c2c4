import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { callsTo, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { failEnvelope, okEnvelope, renderRoutes } from '@/test/render';

const NORTH = {
  id: 4,
  name: 'North',
  admin_account: 'na',
  admin_name: 'Nora',
  superadmin_count: 0,
  admin_count: 1,
  user_count: 2,
  created_at: 1,
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/group/index': () => pageEnvelope([NORTH], 41),
    '/api/group/save': (_url, init) => okEnvelope({ ...NORTH, id: 9, ...(JSON.parse(String(init?.body)) as object) }),
    ...extra,
  });
}

async function openPage() {
  const view = renderRoutes(appRouteObjects, ['/manage/group']);
  await screen.findByTestId('team-row-North');
  return { ...view, user: userEvent.setup() };
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('team list', () => {
  it('lists teams with admin and head counts, pages through the total and searches by name', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    const row = screen.getByTestId('team-row-North');
    expect(row.getAttribute('data-row-key')).toBe('4');
    expect(within(row).getByText('Nora')).toBeTruthy();
    expect(screen.getByText('共 41 条')).toBeTruthy();

    await user.click(screen.getByTitle('3'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/group/index').at(-1)?.url.searchParams.get('page')).toBe('3'));

    await user.type(screen.getByTestId('team-search'), ' Nor {Enter}');
    await waitFor(() => expect(callsTo(fetchMock, '/api/group/index').at(-1)?.url.search).toBe('?name=Nor&page=1&limit=20'));
  });

  it('shows an administrator its team read-only', async () => {
    signIn('administrator');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator' }) });
    await openPage();
    expect(screen.queryByTestId('team-add')).toBeNull();
    expect(screen.queryByTestId('team-rename-4')).toBeNull();
    expect(screen.queryByTestId('team-delete-4')).toBeNull();
  });
});

describe('team changes', () => {
  it('requires a name, then creates the team with "Team creation successful"', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    await user.click(screen.getByTestId('team-add'));
    await user.click(await screen.findByTestId('team-modal-ok'));
    expect(await screen.findByText('请检查必填项！')).toBeTruthy();
    expect(screen.getByText('请输入团队名称')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/group/save')).toHaveLength(0);

    await user.type(screen.getByTestId('team-name-input'), '  East  ');
    await user.click(screen.getByTestId('team-modal-ok'));
    expect(await screen.findByText('团队创建成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/group/save')).toEqual({ name: 'East' });
  });

  it('renames a team with "Save successful"', async () => {
    const fetchMock = server();
    const { user } = await openPage();
    await user.click(screen.getByTestId('team-rename-4'));
    const input = await screen.findByTestId('team-name-input');
    expect((input as HTMLInputElement).value).toBe('North');
    await user.clear(input);
    await user.type(input, 'North Sea{Enter}');
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/group/save')).toEqual({ id: 4, name: 'North Sea' });
  });

  it('asks before removing, and shows the server refusal that says what is attached', async () => {
    const fetchMock = server({ '/api/group/delete': () => failEnvelope(1001, '团队下还有 3 个用户，不能删除', 422) });
    const { user } = await openPage();
    await user.click(screen.getByTestId('team-delete-4'));
    expect(callsTo(fetchMock, '/api/group/delete')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByText('团队下还有 3 个用户，不能删除')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/group/delete')).toEqual({ id: 4 });
    expect(screen.queryByText('删除成功')).toBeNull();
  });

  it('removes a team with "Delete successful"', async () => {
    server({ '/api/group/delete': () => okEnvelope({ ok: true }) });
    const { user } = await openPage();
    await user.click(screen.getByTestId('team-delete-4'));
    await user.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
  });
});
