import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { callsTo, failField, lastBody, mockServer, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { failEnvelope, okEnvelope, renderRoutes } from '@/test/render';

function server(extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user' }),
    '/api/account/change-pass-wd': () => okEnvelope({ ok: true }),
    ...extra,
  });
}

async function fill(current: string, next: string, confirm: string) {
  const view = renderRoutes(appRouteObjects, ['/system/account']);
  const user = userEvent.setup();
  await user.type(await screen.findByTestId('account-current'), current);
  await user.type(screen.getByTestId('account-new'), next);
  await user.type(screen.getByTestId('account-confirm'), confirm);
  await user.click(screen.getByTestId('account-submit'));
  return view;
}

beforeEach(async () => {
  await setLanguage('zh');
  signIn('user');
});

describe('change password', () => {
  it('checks length, difference from the current one and the confirmation at the fields', async () => {
    const fetchMock = server();
    await fill('old-secret', '12345', '12346');
    expect(await screen.findByText('密码至少 6 位')).toBeTruthy();
    expect(screen.getByText('两次输入的新密码不一致')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/account/change-pass-wd')).toHaveLength(0);
  });

  it('refuses a new password equal to the current one', async () => {
    server();
    await fill('same-secret', 'same-secret', 'same-secret');
    expect(await screen.findByText('新密码不能与当前密码相同')).toBeTruthy();
  });

  it('sends password and newpassword, confirms, and stays signed in', async () => {
    const fetchMock = server();
    const { router } = await fill('old-secret', 'new-secret', 'new-secret');
    expect(await screen.findByText('密码已修改，该账号的其他登录已退出。')).toBeTruthy();
    expect(lastBody(fetchMock, '/api/account/change-pass-wd')).toEqual({ password: 'old-secret', newpassword: 'new-secret' });
    expect(router.state.location.pathname).toBe('/system/account');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-1');
    await waitFor(() => expect((screen.getByTestId('account-current') as HTMLInputElement).value).toBe(''));
  });

  it('puts a wrong current password on its field', async () => {
    server({ '/api/account/change-pass-wd': () => failField(1002, '当前密码不正确', 400, 'password') });
    await fill('bad-secret', 'new-secret', 'new-secret');
    const item = (await screen.findByText('当前密码不正确')).closest('.ant-form-item');
    expect(item?.contains(screen.getByTestId('account-current'))).toBe(true);
  });

  it("shows the server's refusal for the read-only demo account", async () => {
    signIn('user', true);
    server({
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'user', demo: true }),
      '/api/account/change-pass-wd': () => failEnvelope(1011, '演示账号为只读', 403),
    });
    await fill('demo123', 'new-secret', 'new-secret');
    expect(await screen.findByText('演示账号为只读')).toBeTruthy();
    expect(screen.getByText('这是只读的演示账号，不能修改密码。')).toBeTruthy();
  });
});
