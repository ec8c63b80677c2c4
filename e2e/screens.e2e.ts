import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { button, toast } from './support/antd.ts';
import { call, login, registerStation } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { storage } from './support/console.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, type RunningServer } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

/** Two stations of the demo team at the same place, registered through the API as the team's administrator. */
async function seedStations({ url }: RunningServer): Promise<void> {
  const token = await login(url, 'demo_admin', DEMO_PASSWORD);
  for (const devId of ['43101', '43102'])
    await registerStation(url, token, {
      dev_id: devId,
      site_name: `Screens ${devId}`,
      serial_number: `SN-LONG-SERIAL-${devId}`,
    });
}

type Box = { x: number; y: number; width: number; height: number };
const box = async (page: Page, selector: string): Promise<Box> => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`not visible: ${selector}`);
  return found;
};

describe.skipIf(!chromiumAvailable)('console screens in Chromium (issue 20)', () => {
  // At 1440×900, as issue 20 found the screens.
  const app = useConsole({ viewport: { width: 1440, height: 900 }, seed: seedStations });

  it('lets a plain user choose followed stations from /home, and keeps their language on the account', async () => {
    const page = await app.signIn('demo_user', DEMO_PASSWORD, { lang: 'zh' });
    await page.goto('/home');
    await button(page, '选择 IPP').click();
    const dialog = page.getByRole('dialog', { name: '选择 IPP' });
    await dialog.getByTestId('group-view-item-43102').click();
    await button(dialog, '保存').click();
    await toast(page, '保存成功');
    // The overview lists the followed station first, starred.
    const first = page.locator('[data-testid^="home-station-"]').first();
    await expect.poll(() => first.getAttribute('data-testid')).toBe('home-station-43102');
    const token = await storage(page, 'token');
    const view = await call<{ loc: { dev_id: string }[] }>(app.server.url, token!, '/setting/get-group-view');
    expect(view.loc.map((l) => l.dev_id)).toEqual(['43102']);

    // English from the header follows the account: a new browser without a stored language opens in English.
    await page.getByTestId('language-switch').getByText('English').click();
    await page.getByText('System Overview').first().waitFor();
    const other = await app.signIn('demo_user', DEMO_PASSWORD);
    await other.goto('/home');
    await button(other, 'Select IPP').waitFor();
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`fits the instrument and team lists at 1440×900 (${lang})`, async () => {
      const page = await app.signIn('admin', ADMIN_PASSWORD, { lang });

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
    });
  }
});
