import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage, toast } from './support/antd.ts';
import { chromiumAvailable, launchBrowser } from './support/browser.ts';
import { watchAnswers } from './support/answers.ts';
import { signIn } from './support/console.ts';
import { call } from './support/recognition-seed.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';

const DEMO_PASSWORD = 'demo123';

async function login(baseUrl: string, account: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/wyrbac/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account, password }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Two stations of the demo team at the same place, registered through the API as the team's administrator. */
async function seedStations(baseUrl: string): Promise<void> {
  const token = await login(baseUrl, 'demo_admin', DEMO_PASSWORD);
  const teams = await call<{ id: number; name: string }[]>(baseUrl, token, '/group/index?page=1&limit=100');
  const team = teams.find((each) => each.name.startsWith('Demo Team'))!;
  for (const devId of ['43101', '43102']) {
    await call(baseUrl, token, '/ipp/save', {
      dev_id: devId,
      site_name: `Screens ${devId}`,
      country: 'CN',
      longitude: 120.3,
      latitude: 36.1,
      group_id: team.id,
      serial_number: `SN-LONG-SERIAL-${devId}`,
      config: DEFAULT_IPP_CONFIG,
    });
  }
}

/** At 1440×900, as issue 20 found the screens. */
async function open1440(browser: Browser, baseURL: string, lang: 'zh' | 'en'): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  watchAnswers(page, baseURL);
  await page.goto('/login');
  await setLanguage(page, lang);
  return page;
}

type Box = { x: number; y: number; width: number; height: number };
const box = async (page: Page, selector: string): Promise<Box> => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`not visible: ${selector}`);
  return found;
};

describe.skipIf(!chromiumAvailable)('console screens in Chromium (issue 20)', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await seedStations(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lets a plain user choose followed stations from /home, and keeps their language on the account', async () => {
    const page = await open1440(browser, server.url, 'zh');
    await signIn(page, 'demo_user', DEMO_PASSWORD);
    await page.goto('/home');
    await page.getByTestId('home-select-ipp').click();
    await page.getByTestId('group-view-item-43102').click();
    await page.getByTestId('group-view-save').click();
    await toast(page, '保存成功');
    // The overview lists the followed station first, starred.
    const first = page.locator('[data-testid^="home-station-"]').first();
    await expect.poll(() => first.getAttribute('data-testid')).toBe('home-station-43102');
    const token = await page.evaluate(() => window.localStorage.getItem('token'));
    const view = await call<{ loc: { dev_id: string }[] }>(server.url, token!, '/setting/get-group-view');
    expect(view.loc.map((l) => l.dev_id)).toEqual(['43102']);

    // English from the header follows the account: a new browser without a stored language opens in English.
    await page.getByTestId('language-switch').getByText('English').click();
    await page.getByText('System Overview').first().waitFor();
    const fresh = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1440, height: 900 },
      reducedMotion: 'reduce',
    });
    const other = await fresh.newPage();
    watchAnswers(other, server.url);
    await signIn(other, 'demo_user', DEMO_PASSWORD);
    await other.goto('/home');
    await other.getByTestId('home-select-ipp').getByText('Select IPP').waitFor();
    await fresh.close();
    await page.context().close();
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`fits the instrument and team lists at 1440×900 (${lang})`, async () => {
      const page = await open1440(browser, server.url, lang);
      await signIn(page, 'admin', ADMIN_PASSWORD);

      await page.goto('/manage/ipp');
      await page.getByTestId('ipp-row-43101').waitFor();
      // The wiper column ends where the fixed actions column starts, not under it.
      const headers = page.locator('.ant-table-thead th');
      const wiperHeader = headers.filter({ hasText: lang === 'zh' ? '雨刷状态' : 'Wiper status' });
      const actionsHeader = headers.filter({ hasText: lang === 'zh' ? '操作' : 'Actions' });
      const wiper = (await wiperHeader.boundingBox())!;
      const actions = (await actionsHeader.boundingBox())!;
      expect(wiper.x + wiper.width).toBeLessThanOrEqual(actions.x + 1);
      // No horizontal scrolling needed: the table is as wide as its card.
      const scroll = await page
        .locator('.ant-table-content, .ant-table-body')
        .first()
        .evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(scroll).toBeLessThanOrEqual(1);

      await page.goto('/manage/group');
      const table = await box(page, '.ant-table');
      const remove = await box(page, '[data-testid^="team-delete-"]');
      expect(remove.x + remove.width).toBeLessThanOrEqual(table.x + table.width);
      await page.context().close();
    });
  }
});
