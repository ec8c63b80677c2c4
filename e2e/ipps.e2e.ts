import { describe, expect, it } from 'vitest';
import { button, choose, confirm, toast } from './support/antd.ts';
import { chromiumAvailable } from './support/browser.ts';
import { expectPath } from './support/console.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const T = {
  zh: {
    saved: '保存成功',
    deleted: '删除成功',
    offline: '离线',
    country: '中国',
    add: '添加仪器',
    devId: '站点 ID',
    siteName: '站点名称',
    longitude: '经度',
    latitude: '纬度',
    serialNumber: '序列号',
    save: '保存',
    keySaved: '我已保存密钥',
  },
  en: {
    saved: 'Save successful',
    deleted: 'Delete successful',
    offline: 'Offline',
    country: 'China',
    add: 'Add instrument',
    devId: 'Site ID',
    siteName: 'Site name',
    longitude: 'Longitude',
    latitude: 'Latitude',
    serialNumber: 'Serial number',
    save: 'Save',
    keySaved: 'I have saved the key',
  },
} as const;

describe.skipIf(!chromiumAvailable).each(['zh', 'en'] as const)(
  'instrument registry and followed stations in Chromium (%s)',
  (lang) => {
    const app = useConsole({ lang });
    const t = T[lang];
    const devId = `210${lang === 'zh' ? '05' : '06'}`;

    it('a team administrator registers an instrument: limits at the field, the device key shown once', async () => {
      const page = await app.signIn('demo_admin', DEMO_PASSWORD);
      await page.goto('/manage/ipp');
      await button(page, t.add).click();
      await expectPath(page, '/manage/ipp_edit');
      const field = (label: string) => page.getByLabel(label, { exact: true });
      await field(t.devId).fill(devId);
      await field(t.siteName).fill('Yellow Sea buoy');
      await choose(page, 'ipp-country', t.country);
      await field(t.longitude).fill('121.5');
      await field(t.latitude).fill('36.1');
      await field(t.serialNumber).fill('SN-0001');
      // Frame rate above the limit of 29 is refused at the field, before anything is sent.
      await page.getByTestId('ipp-config-frame_rate').fill('30');
      await button(page, t.save).click();
      await page
        .getByText(lang === 'zh' ? /29/ : /at most 29/)
        .first()
        .waitFor();
      await page.getByTestId('ipp-config-frame_rate').fill('5');
      await button(page, t.save).click();
      const key = page.getByTestId('ipp-device-key');
      await key.waitFor();
      expect(await key.textContent()).toMatch(/ippk_[\w-]{43}/);
      await button(page.getByRole('dialog'), t.keySaved).click();
      await expectPath(page, '/manage/ipp');
      const row = page.getByTestId(`ipp-row-${devId}`);
      await row.waitFor();
      expect(await row.textContent()).toContain(t.country);
      expect(await page.getByTestId(`ipp-status-${devId}`).textContent()).toContain(t.offline);
    });

    it('a user sees the team instruments without admin actions; the administrator follows one, then removes one', async () => {
      const page = await app.signIn('demo_user', DEMO_PASSWORD);
      await page.goto('/manage/ipp');
      await page.getByTestId(`ipp-row-${devId}`).waitFor();
      expect(await button(page, t.add).count()).toBe(0);
      await page.context().close();

      const admin = await app.signIn('demo_admin', DEMO_PASSWORD);
      await admin.goto('/manage/system');
      await admin.getByRole('tab', { name: /IPP/ }).click();
      await admin.getByTestId(`group-view-item-${devId}`).check();
      await admin.getByTestId('group-view-save').click();
      await toast(admin, t.saved);
      await admin.reload();
      await admin.getByRole('tab', { name: /IPP/ }).click();
      await expect.poll(() => admin.getByTestId(`group-view-item-${devId}`).isChecked()).toBe(true);
      // And the instrument can be removed after confirmation.
      await admin.goto('/manage/ipp');
      const id = await admin.evaluate(async (dev) => {
        const res = await fetch(`/api/ipp/index?keyword=${dev}`, { headers: { 'x-token': localStorage.getItem('token') ?? '' } });
        return ((await res.json()).data as { id: number }[])[0]?.id;
      }, devId);
      await admin.getByTestId(`ipp-delete-${id}`).click();
      await confirm(admin);
      await toast(admin, t.deleted);
      await expect.poll(() => admin.getByTestId(`ipp-row-${devId}`).count()).toBe(0);
    });
  },
);
