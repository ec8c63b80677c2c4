import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shapePng } from '../apps/server/test/helpers/shapes.ts';
import { button, choose } from './support/antd.ts';
import { call, registerStation, uploadRoi } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { chooseCategory, storage } from './support/console.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const T = {
  en: {
    title: 'Concentration, biovolume and size spectrum',
    noPixel: 'This station has no pixel size',
    perLitre: 'ind/L',
    site: 'Site images',
    ecotaxa: 'An EcoTaxa export',
    esdUnit: 'ESD, µm',
    objects: 'EcoTaxa objects: 10 rows; 0 validated, 10 predicted, 0 dubious, 0 without a class.',
    exportAll: 'Export all listed',
    exportEcotaxa: 'EcoTaxa (TSV + images, zip)',
    importImages: 'Import images',
    importTitle: 'Import a labelled image set',
    import: 'Import',
  },
  zh: {
    title: '浓度、生物体积与粒径谱',
    noPixel: '此站点未设置像素尺寸',
    perLitre: '个/L',
    site: '站点图像',
    ecotaxa: 'EcoTaxa 导出包',
    esdUnit: '等效直径 µm',
    objects: 'EcoTaxa 对象：共 10 行；已验证 0，预测 10，存疑 0，无类别 0。',
    exportAll: '导出全部列表',
    exportEcotaxa: 'EcoTaxa（TSV + 图像，zip）',
    importImages: '导入图像',
    importTitle: '导入已标注的图像集',
    import: '导入',
  },
} as const;

/** A station of the demo team, 2 L of water sampled, and 6 discs (label 1) and 4 rods (label 2) from its instrument. */
async function seedStation(baseUrl: string, token: string, devId: string, pixelSizeUm: number | null) {
  const saved = await registerStation(baseUrl, token, {
    dev_id: devId,
    site_name: `E2E ecology ${devId}`,
    ...(pixelSizeUm === null ? {} : { pixel_size_um: pixelSizeUm }),
  });
  const device = { 'x-device-key': saved.device_key };
  const now = Date.now();
  for (const [at, total] of [
    [now - 20 * 60_000, 10],
    [now - 60_000, 12],
  ] as const) {
    const res = await fetch(`${baseUrl}/api/device/telemetry`, {
      method: 'POST',
      headers: { ...device, 'content-type': 'application/json' },
      body: JSON.stringify({ at, volume_total_l: total }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(1000);
  }
  const seedBase = Number(devId) * 10;
  for (let i = 0; i < 10; i++) {
    const png = await shapePng(i < 6 ? 'disc' : 'rod', seedBase + i);
    await uploadRoi(baseUrl, saved.device_key, {
      capturedAt: now - (i + 2) * 60_000,
      labelIndex: i < 6 ? 1 : 2,
      confidence: 0.9,
      sizePx: 400,
      png,
    });
  }
  return saved.ipp.id;
}

async function download(page: Page, testId: string, file: string) {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  await (await downloading).saveAs(file);
  return fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
}

/**
 * Ecology products end to end, in Chromium against the real server: a station with a pixel size shows its
 * concentration, biovolume and NBSS on the data detail page, narrows them to one class and downloads both CSVs; a
 * station without one says so instead of showing biovolumes.
 */
describe.skipIf(!chromiumAvailable).each(['en', 'zh'] as const)('ecology products in Chromium (%s)', (lang) => {
  const app = useConsole({ lang });
  const t = T[lang];

  it('shows concentration, biovolume and the NBSS, per class, downloads them, and takes the images to EcoTaxa and back', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    const token = (await storage(page, 'token'))!;
    const { server } = app;
    const base = lang === 'en' ? 71000 : 72000;
    const measured = await seedStation(server.url, token, String(base + 1), 2);
    const unknown = await seedStation(server.url, token, String(base + 2), null);

    await page.goto(`/ipp/ipp-view-detail?id=${measured}`);
    const card = page.getByTestId('ecology-card');
    await card.getByText(t.title).waitFor();
    // 10 ROIs in 2 L of water.
    await expect.poll(() => card.getByTestId('ecology-concentration').textContent()).toBe(`5 ${t.perLitre}`);
    await expect.poll(() => card.getByTestId('ecology-biovolume').textContent()).toMatch(/mm³$/);
    expect(Number((await card.getByTestId('ecology-biovolume').textContent())!.replace(' mm³', ''))).toBeGreaterThan(0);
    await card.getByTestId('ecology-series').waitFor();
    await card.getByTestId('ecology-nbss').waitFor();
    expect(Number(await card.getByTestId('ecology-nbss').getAttribute('data-points'))).toBeGreaterThan(0);

    // One class: the six discs.
    const classes = await call<{ id: number; name: string; label_index: number | null }[]>(server.url, token, '/tool/sys-init');
    const copepod = classes.find((c) => c.label_index === 1)!;
    await choose(page, 'ecology-classes', copepod.name);
    await expect.poll(() => card.getByTestId('ecology-concentration').textContent()).toBe(`3 ${t.perLitre}`);

    const series = await download(page, 'ecology-csv-series', path.join(server.dataDir, `ecology-series-${lang}.csv`));
    expect(series[0]).toBe(
      'station,classes,bucket_start,bucket_end,volume_l,rois,concentration_per_l,pixel_size_um,biovolume_mm3,biovolume_mm3_per_l,bucket_start_utc,bucket_end_utc',
    );
    expect(series.slice(1).reduce((sum, line) => sum + Number(line.split(',')[5]), 0)).toBe(6);
    const nbss = await download(page, 'ecology-csv-nbss', path.join(server.dataDir, `ecology-nbss-${lang}.csv`));
    expect(nbss[0]).toMatch(
      /^station,series,period_start,period_end,volume_l,pixel_size_um,size_class,.*,period_start_utc,period_end_utc$/,
    );
    const totalRows = nbss.slice(1).filter((line) => line.split(',')[1]!.startsWith('total'));
    expect(totalRows.reduce((sum, line) => sum + Number(line.split(',')[10]), 0)).toBe(6);

    // Without a pixel size: counts and concentrations, and a clear word instead of biovolumes.
    await page.goto(`/ipp/ipp-view-detail?id=${unknown}`);
    await page.getByTestId('ecology-no-pixel-size').getByText(t.noPixel).waitFor();
    await expect.poll(() => page.getByTestId('ecology-concentration').textContent()).toBe(`5 ${t.perLitre}`);
    expect(await page.getByTestId('ecology-biovolume').textContent()).toBe('—');

    // To EcoTaxa and back: the measured station's images leave as an EcoTaxa zip and come into the other station,
    // with their labels, through the import dialog and its progress.
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-team', 'Demo Team');
    await chooseCategory(page, t.site);
    await choose(page, 'identify-station', `E2E ecology ${base + 1}`);
    await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe('10');
    const zipPath = path.join(server.dataDir, `ecotaxa-${lang}.zip`);
    await button(page, t.exportAll).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: t.exportEcotaxa }).click();
    await (await downloading).saveAs(zipPath);
    await button(page, t.importImages).click();
    const importing = page.getByRole('dialog', { name: t.importTitle });
    await importing.getByRole('radio', { name: t.ecotaxa }).check();
    await choose(page, 'identify-import-station', `E2E ecology ${base + 2}`);
    await importing.locator('input[type=file]').setInputFiles(zipPath);
    await button(importing, t.import).click();
    await expect
      .poll(() => page.getByTestId('identify-import-report').getAttribute('data-imported'), { timeout: 60_000 })
      .toBe('10');
    expect(await page.getByTestId('identify-import-ecotaxa').textContent()).toBe(t.objects);
    await page.keyboard.press('Escape');
    // The other station now shows the same ten, machine-labelled as they were.
    await choose(page, 'identify-station', `E2E ecology ${base + 2}`);
    await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe('20');
    await expect.poll(() => page.getByTestId('identify-node-count-t:ai').textContent()).toBe('20');
    // Sizes in µm: this station has no pixel size, so its own ten match no ESD bound; the ten it imported carry their
    // acquisition's pixel size (acq_pixel_size_um, issue 37) and, like the measured station's ten discs and rods (a few
    // hundred µm at 2 µm per pixel), are all at least 1 µm and none reaches 10 mm.
    await choose(page, 'identify-size-unit', t.esdUnit);
    await page.getByTestId('identify-size-min').fill('1');
    await page.getByTestId('identify-size-min').press('Enter');
    await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe('10');
    await choose(page, 'identify-station', `E2E ecology ${base + 1}`);
    await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe('10');
    await page.getByTestId('identify-size-min').fill('10000');
    await page.getByTestId('identify-size-min').press('Enter');
    await page.getByTestId('identify-grid-empty').waitFor();
  }, 240_000);
});
