import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose, toast } from './support/antd.ts';
import { login, pngOf, registerStation, uploadRoi } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, type RunningServer } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

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

async function seedStation({ url }: RunningServer, devId: string, siteName: string) {
  const token = await login(url, 'admin', ADMIN_PASSWORD);
  const saved = await registerStation(url, token, { dev_id: devId, site_name: siteName });
  const now = Date.now();
  for (let i = 0; i < ROIS; i++) {
    await uploadRoi(url, saved.device_key, {
      capturedAt: now - (i + 1) * 60_000,
      labelIndex: 2,
      confidence: 0.95 - i * 0.1,
      sizePx: 2000,
      png: await pngOf(Number(devId) * 100 + i),
    });
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
  const t = T[lang];
  const siteName = `E2E validate ${lang}`;
  const app = useConsole({ lang, seed: (server) => seedStation(server, lang === 'en' ? '45001' : '45002', siteName) });

  it('validates, corrects and undoes with the keyboard, and shows who labelled what', async () => {
    const page = await app.signIn('demo_user', DEMO_PASSWORD);
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
  });
});
