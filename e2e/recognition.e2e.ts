import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import type { Browser, Page } from 'playwright-core';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shapePng, type Shape } from '../apps/server/test/helpers/shapes.ts';
import { choose, confirm, setLanguage } from './support/antd.ts';
import { chromiumAvailable, launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/console.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';

/** Human-identified examples per shape, imported as a zip of class folders; each shape stands for a system class. */
const EXAMPLES = 10;
const FOLDER: Record<Shape, string> = { disc: 'Copepod', rod: 'Diatom_chain', ring: 'Dinoflagellate' };
/** Rods the instrument called copepods (label 1): re-identification must move them to 002Diatom_chain. */
const MISLABELLED = 6;

const T = {
  en: {
    site: 'Site images',
    changed: `Labels changed: ${MISLABELLED}`,
    finished: 'Re-identification finished: 0 labels changed',
  },
  zh: { site: '站点图像', changed: `标签已变更：${MISLABELLED} 个`, finished: '重新识别已完成：0 个标签被更改' },
} as const;

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

/** A station in the demo team with human-identified shapes (the training set) and mislabelled rods from the device. */
async function seed(baseUrl: string, token: string, devId: string, siteName: string, lang: string) {
  const teams = await call<{ id: number; name: string }[]>(baseUrl, token, '/group/index?page=1&limit=100');
  const team = teams.find((each) => each.name.startsWith('Demo Team'))!;
  const saved = await call<{ ipp: { id: number }; device_key: string }>(baseUrl, token, '/ipp/save', {
    dev_id: devId,
    site_name: siteName,
    country: 'CN',
    longitude: 120.3,
    latitude: 36.1,
    group_id: team.id,
    serial_number: `SN-${devId}`,
    config: DEFAULT_IPP_CONFIG,
  });
  const base = lang === 'en' ? 0 : 50_000;
  const zip = new yazl.ZipFile();
  for (const shape of Object.keys(FOLDER) as Shape[]) {
    for (let i = 0; i < EXAMPLES; i++)
      zip.addBuffer(await shapePng(shape, base + i * 3 + shape.length), `${FOLDER[shape]}/${i}.png`);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(Buffer.concat(chunks))], { type: 'application/zip' }), 'shapes.zip');
  const imported = await fetch(`${baseUrl}/api/roi/import?dev_id=${devId}&as=hi`, {
    method: 'POST',
    headers: { 'x-token': token },
    body: form,
  });
  expect(((await imported.json()) as { data: { imported: number } }).data.imported).toBe(3 * EXAMPLES);
  const now = Date.now();
  for (let i = 0; i < MISLABELLED; i++) {
    const upload = new FormData();
    upload.set('captured_at', String(now - (i + 1) * 60_000));
    upload.set('label_index', '1');
    upload.set('confidence', '0.9');
    upload.set('size_px', '120');
    upload.set('file', new Blob([new Uint8Array(await shapePng('rod', base + 900 + i))], { type: 'image/png' }), 'roi.png');
    const res = await fetch(`${baseUrl}/api/device/rois`, {
      method: 'POST',
      headers: { 'x-device-key': saved.device_key },
      body: upload,
    });
    expect(((await res.json()) as { code: number }).code).toBe(1000);
  }
  const classes = await call<{ id: number; label_index: number | null }[]>(baseUrl, token, '/tool/sys-init');
  return {
    copepod: classes.find((c) => c.label_index === 1)!.id,
    diatoms: classes.find((c) => c.label_index === 2)!.id,
  };
}

const local = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

async function typeRange(page: Page, start: string, end: string) {
  const inputs = page.locator('.ant-modal .ant-picker-range input');
  for (const [i, value] of [start, end].entries()) {
    await inputs.nth(i).click();
    await inputs.nth(i).fill(value);
    await inputs.nth(i).press('Enter');
  }
}

/**
 * AI recognition end to end, in Chromium against the real server: an administrator trains the team's model from its
 * human-identified images and watches the training finish, re-identifies a station whose instrument mislabelled rods,
 * watches the job's progress and sees labels and counts change, then asks for ROIs like one of them.
 */
describe.skipIf(!chromiumAvailable).each(['en', 'zh'] as const)('AI recognition in Chromium (%s)', (lang) => {
  let server: RunningServer;
  let browser: Browser;
  const t = T[lang];
  const devId = lang === 'en' ? '61001' : '61002';
  const siteName = `E2E recognition ${lang}`;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('trains a model, re-identifies with live progress, and finds more like this', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/login');
    await setLanguage(page, lang);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const token = (await page.evaluate(() => localStorage.getItem('token')))!;
    const cls = await seed(server.url, token, devId, siteName, lang);

    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-team', 'Demo Team');

    // Train: the drawer shows the job's progress, then version 1 ready and active.
    await page.getByTestId('identify-ai-models').click();
    await page.getByTestId('ai-models-drawer').waitFor();
    await page.getByTestId('model-train').click();
    await confirm(page);
    await expect
      .poll(() => page.getByTestId('model-row-1').getByTestId('model-status').getAttribute('data-status'), { timeout: 90_000 })
      .toBe('ready');
    await page.getByTestId('model-row-1').getByTestId('model-active').waitFor();
    // Its evaluation: the three classes trained, each with its recall, and the accuracy the list shows.
    await page.getByTestId('model-report-1').click();
    const report = page.getByTestId('model-report');
    await report.waitFor();
    const classRows = page.getByTestId('model-report-classes').locator('tbody tr.ant-table-row');
    await expect.poll(() => classRows.count()).toBe(3);
    const shown = await classRows.allTextContents();
    for (const folder of Object.values(FOLDER)) expect(shown.some((row) => row.includes(folder))).toBe(true);
    expect(Number(await report.getAttribute('data-accuracy'))).toBeGreaterThan(0.5);
    await page.keyboard.press('Escape');
    await report.waitFor({ state: 'detached' });
    // Try an image from the computer: a rod is named a diatom chain first; nothing is stored.
    await page.getByTestId('ai-tab-try').click();
    await page
      .getByTestId('try-image-file')
      .locator('input[type=file]')
      .setInputFiles({ name: 'rod.png', mimeType: 'image/png', buffer: await shapePng('rod', 4242) });
    await page.getByTestId('try-image-answer').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('try-image-class-0').getAttribute('data-class')).toBe(String(cls.diatoms));
    await page.keyboard.press('Escape');

    // The station's site images before: six AI copepods.
    await page.getByTestId('identify-category').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: t.site })
      .first()
      .click();
    await choose(page, 'identify-station', siteName);
    const count = (code: string) => page.getByTestId(`identify-node-count-${code}`).textContent();
    await expect.poll(() => count(`t:ai:c:${cls.copepod}`), { timeout: 15_000 }).toBe(String(MISLABELLED));

    // Re-identify the last day: progress, then the outcome.
    await page.getByTestId('identify-reidentify').click();
    await choose(page, 'identify-reidentify-station', siteName);
    await typeRange(page, local(Date.now() - 24 * 3_600_000), local(Date.now() + 3_600_000));
    await page.getByTestId('identify-reidentify-ok').click();
    const job = page.getByTestId('identify-reidentify-job');
    await job.waitFor();
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    expect(await page.getByTestId('identify-reidentify-job-count').textContent()).toBe(`${MISLABELLED} / ${MISLABELLED}`);
    expect(await page.getByTestId('identify-reidentify-job-outcome').textContent()).toContain(t.changed);
    await page.getByTestId('identify-reidentify-close').click();

    // The tree follows: the rods are diatom chains now, no copepod is left.
    await expect.poll(() => count(`t:ai:c:${cls.diatoms}`), { timeout: 15_000 }).toBe(String(MISLABELLED));
    expect(await page.getByTestId(`identify-node-count-t:ai:c:${cls.copepod}`).count()).toBe(0);

    // Again, closing the dialog at once: the page follows the job and says when it has ended (nothing left to move).
    await page.getByTestId('identify-reidentify').click();
    await choose(page, 'identify-reidentify-station', siteName);
    await typeRange(page, local(Date.now() - 24 * 3_600_000), local(Date.now() + 3_600_000));
    await page.getByTestId('identify-reidentify-ok').click();
    await page.getByTestId('identify-reidentify-close').click();
    // (The first job's notice may still be up: it ended while its dialog was open, with 6 changed.)
    const notice = page.getByTestId('job-ended-notice').filter({ hasText: t.finished });
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.getAttribute('data-status')).toBe('done');

    // More like this: the nearest ROIs of a rod are rods (its five siblings and the imported examples).
    await page.getByTestId(`identify-node-t:ai:c:${cls.diatoms}`).click();
    await expect
      .poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 })
      .toBe(String(MISLABELLED));
    await page.locator('[data-testid^="roi-cell-"]').first().click();
    await page.getByTestId('identify-similar').click();
    await page.getByTestId('similar-grid').waitFor();
    const items = page.locator('[data-testid^="similar-"][data-distance]');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    const firstFive = await items.evaluateAll((els) => els.slice(0, 5).map((el) => el.textContent ?? ''));
    for (const text of firstFive) expect(text).toContain('002Diatom_chain');
    await context.close();
  }, 240_000);
});
