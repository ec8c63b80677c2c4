import { describe, expect, it } from 'vitest';
import { button } from './support/antd.ts';
import { call, login } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { expectPath, signOut, storage } from './support/console.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

describe.skipIf(!chromiumAvailable)('session and shell in Chromium (SQLite)', () => {
  const app = useConsole();

  it('sends a visitor without a session to /login and back to where they were going', async () => {
    const page = await app.newPage();
    await page.goto('/manage/user');
    await expectPath(page, '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/manage/user');
    await page.getByLabel('账号', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill(ADMIN_PASSWORD);
    await button(page, '登录').click();
    await expectPath(page, '/manage/user');
    await expect.poll(() => storage(page, 'role')).toBe('superadmin');
  });

  it('checks the form at the field and shows a refused sign-in inline, not as a toast', async () => {
    const page = await app.newPage();
    await page.goto('/login');
    await page.getByLabel('账号', { exact: true }).fill('admin');
    await page.getByLabel('密码', { exact: true }).fill('123');
    await button(page, '登录').click();
    await page.getByText('密码至少 6 位').waitFor();
    await page.getByLabel('密码', { exact: true }).fill('wrong-password');
    await button(page, '登录').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('账号或密码错误');
    expect(await page.locator('.ant-message-notice').count()).toBe(0);
  });

  it('redirects / to /home, unknown paths to /404, and back home from there', async () => {
    const page = await app.signIn('demo_admin', DEMO_PASSWORD);
    await page.goto('/');
    await expectPath(page, '/home');
    await page.getByTestId('welcome-card').waitFor();
    await page.goto('/no/such/page');
    await expectPath(page, '/404');
    await page.getByText('抱歉，您访问的页面不存在').waitFor();
    await button(page, '返回首页').click();
    await expectPath(page, '/home');
  });

  it('sends a user to /403 for an admin page, and Back returns to the last page', async () => {
    const page = await app.signIn('demo_user', DEMO_PASSWORD);
    await page.goto('/about');
    await page.getByTestId('about-processing').waitFor();
    // A client-side navigation as the router makes it (history state with its index), like a click on a link.
    await page.evaluate(() => {
      window.history.pushState({ usr: null, key: 'e2e', idx: 1 }, '', '/manage/user');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expectPath(page, '/403');
    await page.getByText('抱歉，您无权访问此页面').waitFor();
    // The user's menu has no entry for pages it cannot open.
    expect(await page.getByTestId('sidebar-menu').getByText('用户管理').count()).toBe(0);
    await button(page, '返回').click();
    await expectPath(page, '/about');
    // With nowhere to go back to inside the console, Back leads home.
    await page.goto('/manage/group');
    await expectPath(page, '/403');
    await button(page, '返回').click();
    await expectPath(page, '/home');
  });

  it('switches to English and keeps it after a reload', async () => {
    const page = await app.signIn('demo_admin', DEMO_PASSWORD);
    expect(await page.locator('html').getAttribute('lang')).toMatch(/^zh/);
    await page.getByTestId('language-switch').click();
    await page.getByText('English', { exact: true }).click();
    await expect.poll(() => storage(page, 'language')).toBe('en');
    await page.reload();
    await page.getByTestId('header-user').waitFor();
    await page.getByTestId('sidebar-menu').getByText('About').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    // The server answers in the chosen language too.
    await page.goto('/no/where');
    await page.getByText('Oops, the page you visit does not exist').waitFor();
    // The choice is the account's (POST /setting/save-user): switch back, or the later tests' demo_admin reads English.
    await page.goto('/about');
    const saved = page.waitForResponse((res) => res.url().includes('/api/setting/save-user'));
    await page.getByTestId('language-switch').click();
    await page.getByText('中文', { exact: true }).click();
    expect((await (await saved).json()).data.language).toBe('zh');
    await expect.poll(() => storage(page, 'language')).toBe('zh');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toMatch(/^zh/);
  });

  it('keeps the language chosen on the sign-in page over the one saved to the account, and saves it (issue 37)', async () => {
    const saveLanguage = async (language: string) =>
      call(app.server.url, await login(app.server.url, 'admin', ADMIN_PASSWORD), '/setting/save-user', { language });
    await saveLanguage('zh');
    const page = await app.newPage();
    await page.goto('/login');
    expect(await page.locator('html').getAttribute('lang')).toMatch(/^zh/);
    await page.getByTestId('language-switch').getByText('English', { exact: true }).click();
    await page.getByLabel('Account', { exact: true }).fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    const userInfo = page.waitForResponse((res) => res.url().includes('/api/wyrbac/login/user-info'));
    await button(page, 'Sign in').click();
    await page.getByTestId('header-user').waitFor();
    // The console has the account's word (user-info) and still speaks English: the choice was saved to the account.
    expect((await (await userInfo).json()).data.language).toBe('en');
    await page.getByTestId('sidebar-menu').getByText('About').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await storage(page, 'language')).toBe('en');
    // Later tests sign in as admin expecting Chinese.
    await saveLanguage('zh');
  });

  it('signs out: the server ends the session and the console forgets token, role and demo flag', async () => {
    const page = await app.signIn('demo', DEMO_PASSWORD);
    await page.getByTestId('demo-tag').waitFor();
    const token = await storage(page, 'token');
    expect(await storage(page, 'demo')).toBeTruthy();
    await signOut(page);
    expect(await storage(page, 'token')).toBeNull();
    expect(await storage(page, 'role')).toBeNull();
    expect(await storage(page, 'demo')).toBeNull();
    const res = await page.request.get('/api/wyrbac/login/user-info', { headers: { 'x-token': token ?? '' } });
    expect((await res.json()).code).toBe(1010);
    await page.goto('/home');
    await expectPath(page, '/login');
  });

  it('ends a displaced session in /login with the "signed in elsewhere" message', async () => {
    const first = await app.signIn('demo_admin', DEMO_PASSWORD);
    const second = await app.signIn('demo_admin', DEMO_PASSWORD);
    // The first tab's next call is refused: it signs out locally and says why.
    await first.reload();
    await expectPath(first, '/login');
    await first.getByText('该账号异地登录，请重新登录').waitFor();
    expect(await storage(first, 'token')).toBeNull();
    await second.reload();
    await second.getByTestId('welcome-card').waitFor();
  });

  it('opens a deep link carrying id and token without a stored session', async () => {
    const token = await login(app.server.url, 'demo_user', DEMO_PASSWORD);
    const page = await app.newPage();
    await page.goto(`/about?id=1&token=${encodeURIComponent(token)}`);
    await page.getByTestId('about-processing').waitFor();
    expect(await storage(page, 'token')).toBe(token);
    expect(await storage(page, 'role')).toBe('user');
    expect(new URL(page.url()).searchParams.get('token')).toBeNull();
    // A link with a token but no id is not a deep link.
    const other = await app.newPage();
    await other.goto(`/about?token=${encodeURIComponent(token)}`);
    await expectPath(other, '/login');
  });

  it('keeps the sidebar state in a cookie across reloads', async () => {
    const page = await app.signIn('demo_admin', DEMO_PASSWORD);
    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
    await page.reload();
    await page.getByTestId('header-user').waitFor();
    expect(await page.locator('.ant-layout-sider-collapsed').count()).toBe(1);
  });

  it('keeps a kept-alive page mounted while the user visits another page', async () => {
    const page = await app.signIn('demo_admin', DEMO_PASSWORD);
    await page.goto('/about');
    await page.getByTestId('about-processing').waitFor();
    // Mark the live DOM node: a remount would create a fresh node without the mark.
    await page.getByTestId('about-processing').evaluate((el) => el.setAttribute('data-e2e-mark', 'kept'));
    await page.getByTestId('sidebar-menu').getByText('用户管理').click();
    await expectPath(page, '/manage/user');
    await page.getByTestId('user-add').waitFor();
    await page.getByTestId('sidebar-menu').getByText('关于').click();
    await expectPath(page, '/about');
    expect(await page.getByTestId('about-processing').getAttribute('data-e2e-mark')).toBe('kept');
  });
});
