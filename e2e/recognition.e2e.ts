import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { button, choose, confirm } from './support/antd.ts';
import { chromiumAvailable } from './support/browser.ts';
import { chooseCategory, storage } from './support/console.ts';
import { shapePng } from '../apps/server/test/helpers/shapes.ts';
import { FOLDER, MISLABELLED, seed } from './support/recognition-seed.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const T = {
  en: {
    site: 'Site images',
    changed: `Labels changed: ${MISLABELLED}`,
    finished: 'Re-identification finished: 0 labels changed',
    calibrated: 'Confidences are calibrated probabilities',
    corrected: 'Corrected abundance',
    save: 'Save',
    aiModels: 'AI models',
    train: 'Train new model',
    reidentify: 'Re-identify',
    reidentification: 'Re-identification',
    submit: 'Submit',
    similar: 'More like this',
  },
  zh: {
    site: '站点图像',
    changed: `标签已变更：${MISLABELLED} 个`,
    finished: '重新识别已完成：0 个标签被更改',
    calibrated: '置信度是经过校准的概率',
    corrected: '校正后的丰度',
    save: '保存',
    aiModels: 'AI 模型',
    train: '训练新模型',
    reidentify: '重新识别',
    reidentification: '重新识别',
    submit: '提交',
    similar: '相似图像',
  },
} as const;

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
  const app = useConsole({ lang });
  const t = T[lang];
  const devId = lang === 'en' ? '61001' : '61002';
  const siteName = `E2E recognition ${lang}`;

  it('trains a model, re-identifies with live progress, and finds more like this', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    const cls = await seed(app.server.url, (await storage(page, 'token'))!, devId, siteName, lang);

    // The station's pixel size, on its instrument form: sizes are then shown in µm and mm³ as well.
    await page.goto(`/manage/ipp_edit?id=${cls.ippId}`);
    await page.getByTestId('ipp-pixel_size_um').fill('2.5');
    await button(page, t.save).click();
    await page.locator('.ant-message-success').waitFor();

    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-team', 'Demo Team');

    // Train: the drawer shows the job's progress, then version 1 ready and active.
    await button(page, t.aiModels).click();
    await page.getByTestId('ai-models-drawer').waitFor();
    await button(page, t.train).click();
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
    // Calibrated: the thresholds tab says what the confidences mean and lists each class's automatic threshold.
    await page.getByTestId('ai-tab-thresholds').click();
    const auto = page.getByTestId('auto-thresholds');
    await auto.waitFor();
    await expect.poll(() => auto.locator('tbody tr.ant-table-row').count()).toBe(3);
    expect(await page.getByTestId('thresholds-tab').textContent()).toContain(t.calibrated);
    expect(await page.getByTestId('threshold-target').inputValue()).toBe('95.0');
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
    await chooseCategory(page, t.site);
    await choose(page, 'identify-station', siteName);
    const count = (code: string) => page.getByTestId(`identify-node-count-${code}`).textContent();
    await expect.poll(() => count(`t:ai:c:${cls.copepod}`), { timeout: 15_000 }).toBe(String(MISLABELLED));

    // Re-identify the last day: progress, then the outcome.
    await button(page, t.reidentify).click();
    await choose(page, 'identify-reidentify-station', siteName);
    await typeRange(page, local(Date.now() - 24 * 3_600_000), local(Date.now() + 3_600_000));
    await button(page.getByRole('dialog', { name: t.reidentification }), t.submit).click();
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
    await button(page, t.reidentify).click();
    await choose(page, 'identify-reidentify-station', siteName);
    await typeRange(page, local(Date.now() - 24 * 3_600_000), local(Date.now() + 3_600_000));
    await button(page.getByRole('dialog', { name: t.reidentification }), t.submit).click();
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
    // The model's confidence is a calibrated probability, in %, never certainty.
    const confidence = (await page.getByTestId('ai-confidence').textContent()) ?? '';
    expect(confidence).toMatch(/^(\d{1,2}\.\d|> 99\.9) %$/);
    // Its measures in physical units, from the pixel size set above (2.5 µm per pixel).
    await page.getByTestId('ai-measures').locator('.ant-collapse-header').click();
    const esdPx = Number.parseFloat((await page.getByTestId('ai-measure-equivalent_diameter_px').textContent()) ?? '');
    const esdUm = (await page.getByTestId('ai-measure-equivalent_diameter_px-physical').textContent()) ?? '';
    expect(esdUm).toMatch(/^\d+\.\d µm$/);
    expect(Number.parseFloat(esdUm)).toBeCloseTo(esdPx * 2.5, 0);
    expect(await page.getByTestId('ai-measure-biovolume_px3-physical').textContent()).toMatch(/ mm³$/);
    await button(page, t.similar).click();
    await page.getByTestId('similar-grid').waitFor();
    const items = page.locator('[data-testid^="similar-"][data-distance]');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    const firstFive = await items.evaluateAll((els) => els.slice(0, 5).map((el) => el.textContent ?? ''));
    for (const text of firstFive) expect(text).toContain('002Diatom_chain');
    await page.keyboard.press('Escape');

    // The models list counts the version's labels: accepted by the machine and sent to review, one per ROI.
    await button(page, t.aiModels).click();
    await page.getByTestId('ai-tab-models').click();
    const tally = page.getByTestId('model-row-1').locator('[data-testid^="model-labels-"]');
    await tally.waitFor();
    // (The list may first show what it held before the re-identification, then refreshes: the tally is polled.)
    const labelled = async () => {
      const [accepted, review] = ((await tally.textContent()) ?? '').split('/').map((v) => Number(v.trim()));
      return accepted! + review!;
    };
    await expect.poll(labelled, { timeout: 15_000 }).toBe(MISLABELLED);
    await page.keyboard.press('Escape');

    // Data detail: the station's counts per class, the model-labelled part corrected, beside the raw ones.
    await page.goto('/ipp/ipp-view-detail');
    await choose(page, 'station-select', siteName);
    const card = page.getByTestId('corrected-counts-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain(t.corrected);
    const raw = card.getByTestId(`corrected-raw-${cls.diatoms}`);
    await raw.waitFor({ timeout: 30_000 });
    expect(Number(await raw.textContent())).toBeGreaterThanOrEqual(MISLABELLED);
    expect(await card.getByTestId(`corrected-value-${cls.diatoms}`).textContent()).toMatch(/^\d+\.\d \(\d+\.\d–\d+\.\d\)$/);
  }, 240_000);
});
