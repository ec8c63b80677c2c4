import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choose, setLanguage, toast } from './support/antd.ts';
import { chromiumAvailable, launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/console.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';

const T = {
  en: {
    setClass: 'Set class',
    undone: 'Undone: 3 images put back; 0 changed since, left as they are',
    history: 'Demo User',
    help: 'Validate as predicted (the selection, or the focused image)',
  },
  zh: {
    setClass: '设置类别',
    undone: '已撤销：3 张图像已恢复，0 张此后被改动，保持不变',
    history: 'Demo User',
    help: '确认预测（选中的图像，或当前图像）',
  },
} as const;

/** Eight ROIs the instrument labelled 2 (Diatom_chain) with falling confidence, newest first. */
const ROIS = 8;

function pngOf(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(24 * 24 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (seed * 7919 + i * 31) & 0xff;
  raw.writeUInt32BE(seed, 0);
  return sharp(raw, { raw: { width: 24, height: 24, channels: 3 } })
    .png()
    .toBuffer();
}

async function call<T>(baseUrl: string, token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-token': token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; data: T };
  if (envelope.code !== 1000) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

async function seedStation(baseUrl: string, devId: string, siteName: string) {
  const login = await fetch(`${baseUrl}/api/wyrbac/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const teams = await call<{ id: number; name: string }[]>(baseUrl, token, '/group/index?page=1&limit=100');
  const team = teams.find((each) => each.name.startsWith('Demo Team'))!;
  const saved = await call<{ device_key: string }>(baseUrl, token, '/ipp/save', {
    dev_id: devId,
    site_name: siteName,
    country: 'CN',
    longitude: 120.3,
    latitude: 36.1,
    group_id: team.id,
    serial_number: `SN-${devId}`,
    config: DEFAULT_IPP_CONFIG,
  });
  const now = Date.now();
  for (let i = 0; i < ROIS; i++) {
    const form = new FormData();
    form.set('captured_at', String(now - (i + 1) * 60_000));
    form.set('label_index', '2');
    form.set('confidence', String(0.95 - i * 0.1));
    form.set('size_px', '2000');
    form.set('file', new Blob([new Uint8Array(await pngOf(Number(devId) * 100 + i))], { type: 'image/png' }), 'roi.png');
    const res = await fetch(`${baseUrl}/api/device/rois`, {
      method: 'POST',
      headers: { 'x-device-key': saved.device_key },
      body: form,
    });
    if (((await res.json()) as { code: number }).code !== 1000) throw new Error(`upload ${i}`);
  }
}

const marks = (page: Page) =>
  page.locator('[data-testid^="roi-cell-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-mark')));

/**
 * Issue 25 in Chromium against the real server: a plain user works through predictions with the keyboard alone
 * (validate, extend the selection, set a class by typing its taxon, select all, validate), reads an image's history
 * and undoes a bulk action, in both languages.
 */
describe.skipIf(!chromiumAvailable).each(['en', 'zh'] as const)('validating from the keyboard in Chromium (%s)', (lang) => {
  let server: RunningServer;
  let browser: Browser;
  const t = T[lang];
  const siteName = `E2E validate ${lang}`;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await seedStation(server.url, lang === 'en' ? '45001' : '45002', siteName);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('validates, corrects and undoes with the keyboard, and shows who labelled what', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/login');
    await setLanguage(page, lang);
    await signIn(page, 'demo_user', 'demo123');
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-station', siteName);
    await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe(String(ROIS));
    expect(await marks(page)).toEqual(Array(ROIS).fill('predicted'));
    await page.locator('body').click({ position: { x: 5, y: 5 } });

    // ? lists the keys.
    await page.keyboard.press('?');
    await page.getByTestId('identify-keys-help').getByText(t.help).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('identify-keys-help').waitFor({ state: 'hidden' });

    // → focuses the first image, V validates it and moves on.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('[data-focused="true"]').count()).toBe(1);
    await page.keyboard.press('v');
    await expect.poll(() => marks(page)).toEqual(['validated', ...Array(ROIS - 1).fill('predicted')]);

    // ↓ moves a row down (as many images as the grid has columns), ↑ back.
    const focusedIndex = () =>
      page
        .locator('[data-testid^="roi-cell-"]')
        .evaluateAll((els) => els.findIndex((el) => el.getAttribute('data-focused') === 'true'));
    const columns = await page
      .locator('[data-testid^="roi-cell-"]')
      .evaluateAll((els) => els.filter((el) => (el as HTMLElement).offsetTop === (els[0] as HTMLElement).offsetTop).length);
    expect(columns).toBeGreaterThan(1);
    await expect.poll(focusedIndex).toBe(1);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedIndex).toBe(1 + columns);
    await page.keyboard.press('ArrowUp');
    await expect.poll(focusedIndex).toBe(1);

    // Shift+→ twice selects three, C opens the class picker, typing part of the taxon's Latin name and Enter applies it.
    await expect.poll(() => page.locator('[data-focused="true"]').getAttribute('data-testid')).not.toBe(null);
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => page.getByTestId('identify-selection-count').getAttribute('data-count')).toBe('3');
    await page.keyboard.press('c');
    await page.getByTestId('identify-target-class').waitFor();
    await page.keyboard.type('copepod');
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-active', { hasText: 'Copepod' })
      .waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => marks(page))
      .toEqual(['validated', 'validated', 'validated', 'validated', ...Array(ROIS - 4).fill('predicted')]);
    const second = page.locator('[data-testid^="roi-cell-"]').nth(1);
    expect(await second.textContent()).toContain('Copepod');

    // The detail pane's history says who set which class from which.
    const history = page.getByTestId('identify-history');
    await history.getByText(t.setClass).waitFor();
    expect(await history.textContent()).toContain(t.history);
    expect(await history.textContent()).toContain('Diatom_chain');

    // U undoes that bulk action: the three are predictions again.
    await page.keyboard.press('u');
    await toast(page, t.undone);
    await expect.poll(() => marks(page)).toEqual(['validated', ...Array(ROIS - 1).fill('predicted')]);

    // Ctrl+A, V: every loaded image validated in two key presses.
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByTestId('identify-selection-count').getAttribute('data-count')).toBe(String(ROIS));
    await page.keyboard.press('v');
    await expect.poll(() => marks(page)).toEqual(Array(ROIS).fill('validated'));
    await context.close();
  });
});
