import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/i18n';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { callsTo, mockServer, signIn, type FetchMock } from '@/test/mock-server';
import { failEnvelope, okEnvelope, renderRoutes } from '@/test/render';
import { appRouteObjects } from './router';

const USER_INFO = {
  id: 7,
  account: 'alice',
  name: 'Alice Chen',
  roles: ['user'],
  role: 'user',
  avatar: '',
  group_id: 3,
  group: { id: 3, name: 'North Sea' },
  demo: false,
  language: null,
  size: null,
};

/** The first call to a path (start-up calls come first, in no fixed order). */
function callTo(fetchMock: FetchMock, pathname: string) {
  return callsTo(fetchMock, pathname)[0];
}

beforeEach(async () => {
  await setLanguage('zh');
});

describe('routing and guard', () => {
  it('sends a visitor without a session to the login page, remembering the page', async () => {
    mockServer({});
    const { router } = renderRoutes(appRouteObjects, ['/manage/ipp']);
    expect(await screen.findByTestId('login-submit')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Fmanage%2Fipp');
  });

  it('redirects / to /home and unknown paths to /404', async () => {
    mockServer({ '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO) });
    signIn('user');
    const { router } = renderRoutes(appRouteObjects, ['/']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));

    await router.navigate('/no/such/page');
    expect(await screen.findByText('抱歉，您访问的页面不存在')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
  });

  it('shows /403 when a user opens a route limited to administrators', async () => {
    mockServer({ '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO) });
    signIn('user');
    const { router } = renderRoutes(appRouteObjects, ['/manage/group']);
    expect(await screen.findByText('抱歉，您无权访问此页面')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/403');

    await userEvent.setup().click(screen.getByTestId('back-home'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('lets an administrator open it', async () => {
    mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator' }),
      '/api/group/index': () => okEnvelope([]),
    });
    signIn('administrator');
    const { router } = renderRoutes(appRouteObjects, ['/manage/group']);
    expect(await screen.findByTestId('team-search')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/group');
  });

  it('signs in from a deep link with id and token, then drops the token from the address', async () => {
    const fetchMock = mockServer({ '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO) });
    const { router } = renderRoutes(appRouteObjects, ['/ipp/ipp-view?id=5&token=link-token']);
    await waitFor(() => expect(router.state.location.search).toBe('?id=5'));
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('link-token');
    expect(localStorage.getItem(STORAGE_KEYS.role)).toBe('user');
    const headers = new Headers(callTo(fetchMock, '/api/wyrbac/login/user-info')?.init?.headers);
    expect(headers.get('X-Token')).toBe('link-token');
  });
});

describe('home and header', () => {
  it('welcomes the user by name, role and team, and tags a demo session', async () => {
    mockServer({ '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, demo: true }) });
    signIn('user', true);
    renderRoutes(appRouteObjects, ['/home']);
    expect(await screen.findByText('欢迎，Alice Chen')).toBeTruthy();
    expect(screen.getByText('普通用户')).toBeTruthy();
    expect(screen.getByText('North Sea')).toBeTruthy();
    expect(screen.getByTestId('demo-tag').textContent).toBe('演示（只读）');
  });

  it('switches the language from the header and remembers it', async () => {
    mockServer({ '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO) });
    signIn('user');
    renderRoutes(appRouteObjects, ['/about']);
    expect(await screen.findByText('图像处理、AI 识别与统计在设备端和云端运行。')).toBeTruthy();
    await userEvent.setup().click(within(screen.getByTestId('language-switch')).getByText('English'));
    expect(
      await screen.findByText('Image processing, AI recognition and statistics run on the device and in the cloud.'),
    ).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('signs out after confirmation, even when the server call fails', async () => {
    const fetchMock = mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope(USER_INFO),
      '/api/wyrbac/login/logout': () => failEnvelope(1500, 'Internal error', 500),
    });
    signIn('user', true);
    const { router } = renderRoutes(appRouteObjects, ['/home']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('logout-button'));
    await user.click(await screen.findByTestId('logout-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith('/api/wyrbac/login/logout'))).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.role)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.demo)).toBeNull();
  });

  it('returns to /login when a call reports an expired token', async () => {
    mockServer({ '/api/wyrbac/login/user-info': () => failEnvelope(1010, 'Error Token,Please login again.', 401) });
    signIn('user');
    const { router } = renderRoutes(appRouteObjects, ['/about']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(await screen.findByText('Error Token,Please login again.')).toBeTruthy();
  });
});

describe('login page', () => {
  it('checks the password length at the field, in the current language', async () => {
    mockServer({});
    renderRoutes(appRouteObjects, ['/login']);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-password'), '12345');
    expect(await screen.findByText('密码至少 6 位')).toBeTruthy();
    await user.click(within(screen.getByTestId('language-switch')).getByText('English'));
    expect(await screen.findByText('The password needs at least 6 characters')).toBeTruthy();
  });

  it('stores the session and goes to the redirect target', async () => {
    const fetchMock = mockServer({
      '/api/wyrbac/login/login': () => okEnvelope({ token: 'new-token', role: 'administrator', name: 'Bo', demo: true }),
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator', demo: true }),
    });
    const { router } = renderRoutes(appRouteObjects, ['/login?redirect=%2Fsystem%2Frole']);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), ' bo ');
    await user.type(screen.getByTestId('login-password'), 'secret-pw');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/system/role'));
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new-token');
    expect(localStorage.getItem(STORAGE_KEYS.role)).toBe('administrator');
    expect(localStorage.getItem(STORAGE_KEYS.demo)).toBe('1');
    expect(callTo(fetchMock, '/api/wyrbac/login/login')?.init?.body).toBe('{"username":"bo","password":"secret-pw"}');
  });

  it('shows a failed sign-in inline, not as a toast', async () => {
    mockServer({ '/api/wyrbac/login/login': () => failEnvelope(1001, '账号或密码错误', 422) });
    renderRoutes(appRouteObjects, ['/login']);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('login-username'), 'bo');
    await user.type(screen.getByTestId('login-password'), 'wrong-pw');
    await user.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-error')).textContent).toContain('账号或密码错误');
    expect(document.querySelector('.ant-message')).toBeNull();
  });

  it('uses the request domain name typed in the collapsible option', async () => {
    const fetchMock = mockServer({});
    fetchMock.mockImplementation(async () => failEnvelope(1001, 'nope', 422));
    renderRoutes(appRouteObjects, ['/login']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('login-host-toggle'));
    await user.type(screen.getByTestId('login-host'), 'http://10.1.2.3:8080/');
    await user.type(screen.getByTestId('login-username'), 'bo');
    await user.type(screen.getByTestId('login-password'), 'secret-pw');
    await user.click(screen.getByTestId('login-submit'));
    await screen.findByTestId('login-error');
    expect(callTo(fetchMock, '/api/wyrbac/login/login')?.url.href).toBe('http://10.1.2.3:8080/api/wyrbac/login/login');
    expect(localStorage.getItem(STORAGE_KEYS.apiHost)).toBe('http://10.1.2.3:8080');
  });
});
