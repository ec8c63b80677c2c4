import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { ippFixture } from '@/test/fixtures';
import { callsTo, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { failEnvelope, okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';

const BUOY = ippFixture({ id: 7, dev_id: '21005', site_name: 'Yellow Sea buoy' });
const FJORD = ippFixture({ id: 8, dev_id: '21006', site_name: 'Fjord' });
const TEAMS = [4, 5].map((id) => ({
  id,
  name: id === 4 ? 'North' : 'South',
  admin_account: null,
  admin_name: null,
  superadmin_count: 0,
  admin_count: 0,
  user_count: 0,
  created_at: 1,
}));
const ADMIN_INFO = {
  ...USER_INFO,
  id: 30,
  role: 'administrator',
  roles: ['administrator'],
  group_id: 4,
  group: { id: 4, name: 'North' },
};

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(ADMIN_INFO),
    '/api/get-lang/lang': () => okEnvelope([]),
    '/api/group/index': () => pageEnvelope(TEAMS),
    '/api/setting/get-group-view': (url) =>
      okEnvelope({ group_id: Number(url.searchParams.get('group_id') ?? 4), loc: [{ id: 8, dev_id: '21006' }] }),
    '/api/ipp/index': () => pageEnvelope([BUOY, FJORD]),
    '/api/setting/set-group-view': (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { group_id: number; ids: number[] };
      return okEnvelope({ group_id: body.group_id, loc: body.ids.map((id) => ({ id, dev_id: String(id) })) });
    },
    ...extra,
  });
}

async function openTab() {
  renderRoutes(appRouteObjects, ['/manage/system']);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('tab', { name: '选择 IPP' }));
  return user;
}

const box = (devId: string) => screen.getByTestId(`group-view-item-${devId}`) as HTMLInputElement;

beforeEach(async () => {
  await setLanguage('zh');
  signIn('administrator');
});

describe('Select IPP', () => {
  it('ticks the stations an administrator follows in its team and saves the new choice', async () => {
    const fetchMock = server();
    const user = await openTab();
    await waitFor(() => expect(box('21006').checked).toBe(true));
    expect(box('21005').checked).toBe(false);
    expect(screen.getByTestId('group-view-team').textContent).toBe('North');
    expect(screen.getByText('Yellow Sea buoy')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/setting/get-group-view')[0]?.url.search).toBe('');
    expect(callsTo(fetchMock, '/api/ipp/index')[0]?.url.search).toBe('?page=1&limit=1000');

    await user.click(box('21005'));
    expect(screen.getByTestId('group-view-count').textContent).toBe('已选 2 / 2');
    await user.click(screen.getByTestId('group-view-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/setting/set-group-view')).toEqual({ group_id: 4, ids: [7, 8] });
  });

  it('lets a superadmin pick the team and saves for that team', async () => {
    signIn('superadmin');
    const fetchMock = server({
      '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
      '/api/setting/get-group-view': (url) =>
        okEnvelope(url.searchParams.has('group_id') ? { group_id: 5, loc: [] } : { group_id: null, loc: [] }),
    });
    const user = await openTab();
    expect((await screen.findByTestId('group-view-no-team')).textContent).toContain('请选择团队');
    expect(callsTo(fetchMock, '/api/ipp/index')).toHaveLength(0);

    await pickOption('group-view-team', 'South');
    await waitFor(() => expect(box('21005').checked).toBe(false));
    expect(callsTo(fetchMock, '/api/setting/get-group-view').at(-1)?.url.search).toBe('?group_id=5');
    expect(callsTo(fetchMock, '/api/ipp/index').at(-1)?.url.search).toBe('?group_id=5&page=1&limit=1000');
    await user.click(screen.getByTestId('group-view-all'));
    await user.click(screen.getByTestId('group-view-save'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/setting/set-group-view')).toEqual({ group_id: 5, ids: [7, 8] }));
  });

  it('says so when the team has no instruments', async () => {
    server({ '/api/ipp/index': () => pageEnvelope([]) });
    await openTab();
    expect((await screen.findByTestId('group-view-empty')).textContent).toContain('该团队还没有仪器');
    expect(screen.queryByTestId('group-view-save')).toBeNull();
  });

  it("shows the server's refusal of the read-only demo account", async () => {
    signIn('administrator', true);
    server({ '/api/setting/set-group-view': () => failEnvelope(1011, '演示账号为只读', 403) });
    const user = await openTab();
    await waitFor(() => expect(box('21006').checked).toBe(true));
    await user.click(screen.getByTestId('group-view-save'));
    expect(await screen.findByText('演示账号为只读')).toBeTruthy();
    expect(screen.queryByText('保存成功')).toBeNull();
  });
});
