import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { callsTo, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';

const user = (id: number, account: string, role = 'user') => ({
  id,
  account,
  name: account.toUpperCase(),
  phone: '12345678',
  email: `${account}@example.org`,
  group_id: 4,
  group_name: 'North',
  role,
  demo: false,
  created_at: 1,
});

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
    '/api/user/index': () => pageEnvelope([user(1, 'admin', 'superadmin'), user(12, 'bob')], 2),
    '/api/group/index': () =>
      pageEnvelope([
        {
          id: 4,
          name: 'North',
          admin_account: null,
          admin_name: null,
          superadmin_count: 0,
          admin_count: 0,
          user_count: 1,
          created_at: 1,
        },
      ]),
    '/api/user/delete': () => okEnvelope({ ok: true }),
    ...extra,
  });
}

async function openPage() {
  const view = renderRoutes(appRouteObjects, ['/manage/user']);
  await screen.findByText('bob');
  return { ...view, user: userEvent.setup() };
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('superadmin');
});

describe('user list', () => {
  it('searches by account, email, phone and team from page 1', async () => {
    const fetchMock = server();
    const { user: actor } = await openPage();
    await actor.type(screen.getByTestId('user-search-account'), ' bo ');
    await actor.type(screen.getByTestId('user-search-email'), 'example.org');
    await actor.type(screen.getByTestId('user-search-phone'), '123');
    await pickOption('user-search-team', 'North');
    await actor.click(screen.getByTestId('user-search-submit'));
    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/user/index').at(-1)?.url.search).toBe(
        '?account=bo&email=example.org&phone=123&group_id=4&page=1&limit=20',
      ),
    );
  });

  it('opens the form to add and to edit', async () => {
    server();
    const { user: actor, router } = await openPage();
    await actor.click(screen.getByTestId('user-edit-12'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/manage/user_edit?id=12'));
    await router.navigate('/manage/user');
    await actor.click(await screen.findByTestId('user-add'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/manage/user_edit'));
  });

  it('deletes after confirmation, and never offers deleting oneself', async () => {
    const fetchMock = server();
    const { user: actor } = await openPage();
    expect((screen.getByTestId('user-delete-1') as HTMLButtonElement).disabled).toBe(true);
    await actor.click(screen.getByTestId('user-delete-12'));
    expect(callsTo(fetchMock, '/api/user/delete')).toHaveLength(0);
    await actor.click(await screen.findByTestId('confirm-ok'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/user/delete')).toEqual({ id: 12 });
  });

  it('gives an administrator no team filter and no actions on higher roles', async () => {
    signIn('administrator');
    server({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, id: 30, role: 'administrator' }) });
    await openPage();
    expect(screen.queryByTestId('user-search-team')).toBeNull();
    expect(screen.queryByTestId('user-edit-1')).toBeNull();
    expect(screen.getByTestId('user-edit-12')).toBeTruthy();
  });
});
