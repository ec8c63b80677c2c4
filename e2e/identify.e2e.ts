import type { Page } from 'playwright-core';
import fs from 'node:fs';
import { zipOf } from '../apps/server/test/helpers/zip.ts';
import { describe, expect, it } from 'vitest';
import { button, choose, confirm, toast } from './support/antd.ts';
import { pngOf, seedLabelledStation } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { chooseCategory, storage } from './support/console.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const T = {
  en: {
    site: 'Site images',
    folders: 'Folders',
    recycle: 'Recycle bin',
    review: 'Review',
    size: 'Size',
    nameEmpty: 'Class name can not be empty',
    nameBad: 'Naming does not conform to the specifications.',
    created: (name: string) => `New Class ${name} under Folders successful`,
    done: 'Operation successful',
    selected: (n: number) => `${n} selected`,
    total: (n: number) => `${n} images`,
    copyToFolder: 'Copy to folder',
    newFolder: 'New folder',
    newClass: 'New class under Folders',
    className: 'Class name',
    save: 'Save',
    ok: 'OK',
    exportSelected: (n: number) => `Export ${n} selected`,
    importImages: 'Import images',
    importTitle: 'Import a labelled image set',
    import: 'Import',
  },
  zh: {
    site: '站点图像',
    folders: '文件夹',
    recycle: '回收站',
    review: '审核',
    size: '颗粒大小',
    nameEmpty: '类别名称不能为空',
    nameBad: '命名不符合规范',
    created: (name: string) => `在 文件夹 下新建类别 ${name} 成功`,
    done: '操作成功',
    selected: (n: number) => `已选 ${n} 张`,
    total: (n: number) => `共 ${n} 张`,
    copyToFolder: '复制到文件夹',
    newFolder: '新建文件夹',
    newClass: '在 文件夹 下新建类别',
    className: '类别名称',
    save: '保存',
    ok: '确定',
    exportSelected: (n: number) => `导出选中的 ${n} 张`,
    importImages: '导入图像',
    importTitle: '导入已标注的图像集',
    import: '导入',
  },
} as const;

/** Five unlabelled ROIs (newest first in the grid), then three the device labelled 1 (AI). */
const ROIS = 8;
const UNLABELLED = 5;

/** Registers a station in the demo team through the console API and sends its ROIs through the device API. */
const seedStation = (baseUrl: string, token: string, devId: string, siteName: string) =>
  seedLabelledStation(
    baseUrl,
    token,
    { dev_id: devId, site_name: siteName },
    { rois: ROIS, unlabelled: UNLABELLED, pngBase: Number(devId) * 100 },
  );

/** A zip of one class folder, as a data set export would hold it. */
async function classZip(folder: string, seeds: number[], alsoIn?: string): Promise<Buffer> {
  const entries = new Map<string, Buffer>();
  for (const seed of seeds) entries.set(`${folder}/${seed}.png`, await pngOf(seed));
  // The first image again, filed under another class: the import reports it.
  if (alsoIn) entries.set(`${alsoIn}/copy.png`, await pngOf(seeds[0]!));
  return zipOf(entries);
}

const cells = (page: Page) => page.locator('[data-testid^="roi-cell-"]');
const attr = (page: Page, testId: string, name: string) => page.getByTestId(testId).getAttribute(name);

async function expectGridCount(page: Page, n: number) {
  if (n === 0) {
    await page.getByTestId('identify-grid-empty').waitFor();
    return;
  }
  await expect.poll(() => attr(page, 'identify-grid', 'data-count'), { timeout: 15_000 }).toBe(String(n));
}

/** The folder's node in the tree (folder codes are opaque: found by title) and its count. */
async function folderCount(page: Page, title: string) {
  const node = page.locator('[data-testid^="identify-node-f:"]', { hasText: title });
  await node.waitFor();
  const code = (await node.getAttribute('data-testid'))!.replace('identify-node-', '');
  return { node, code, count: () => page.getByTestId(`identify-node-count-${code}`).textContent() };
}

/**
 * The identify workspace end to end, in Chromium against the real server: a superadmin picks the demo team and a
 * station's site images, selects a range of thumbnails, files them into a new folder (the naming rule refused
 * first), then recycles one and restores it from the recycle bin, with the counts following each step.
 */
describe.skipIf(!chromiumAvailable).each(['en', 'zh'] as const)('identify workspace in Chromium (%s)', (lang) => {
  const app = useConsole({ lang });
  const t = T[lang];
  const devId = lang === 'en' ? '41001' : '41002';
  const siteName = `E2E identify buoy ${lang}`;
  const folder = `101E2E_${lang}`;

  /** The station's site images; answers the grid's ROI ids, newest first. */
  const openSiteImages = async (page: Page) => {
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-team', 'Demo Team');
    await chooseCategory(page, t.site);
    await choose(page, 'identify-station', siteName);
    await expectGridCount(page, ROIS);
    return cells(page).evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-testid')!.slice(9))));
  };

  it('selects, files into a new folder, recycles and restores', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    await seedStation(app.server.url, (await storage(page, 'token'))!, devId, siteName);

    // Site images of the station: the tree by recognition group, the grid newest first.
    const ids = await openSiteImages(page);
    expect(await page.getByTestId('identify-total').textContent()).toBe(t.total(ROIS));
    expect(await page.getByTestId('identify-node-count-t:ui').textContent()).toBe(String(UNLABELLED));
    expect(await page.getByTestId('identify-node-count-t:ai').textContent()).toBe(String(ROIS - UNLABELLED));
    expect(ids).toHaveLength(ROIS);

    // The detail pane follows the focus; the arrow keys step through the list.
    await cells(page).nth(0).click();
    await expect.poll(() => attr(page, 'identify-detail', 'data-roi')).toBe(String(ids[0]));
    await page.getByTestId('identify-next').waitFor();
    await expect.poll(() => page.getByTestId('identify-next').isEnabled()).toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => attr(page, 'identify-detail', 'data-roi')).toBe(String(ids[1]));
    expect(await page.getByTestId('identify-detail-file-size').textContent()).toMatch(/KB$/);

    // Shift-click selects the range from the first click; Ctrl-click adds one more and takes it away again.
    await cells(page)
      .nth(2)
      .click({ modifiers: ['Shift'] });
    await expect.poll(() => attr(page, 'identify-selection-count', 'data-count')).toBe('3');
    expect(await page.getByTestId('identify-selection-count').textContent()).toBe(t.selected(3));
    for (const id of ids.slice(0, 3)) expect(await attr(page, `roi-cell-${id}`, 'data-selected')).toBe('true');
    expect(await attr(page, `roi-cell-${ids[3]}`, 'data-selected')).toBe('false');
    // No AI-labelled image selected: "move to an HI class" is offered; with one, it is not.
    await page.getByTestId('action-23').waitFor();
    await cells(page)
      .nth(ROIS - 1)
      .click({ modifiers: ['ControlOrMeta'] });
    await expect.poll(() => attr(page, 'identify-selection-count', 'data-count')).toBe('4');
    expect(await page.getByTestId('action-23').count()).toBe(0);
    await cells(page)
      .nth(ROIS - 1)
      .click({ modifiers: ['ControlOrMeta'] });
    await expect.poll(() => attr(page, 'identify-selection-count', 'data-count')).toBe('3');
    await page.getByTestId('action-23').waitFor();

    // Copy to a folder: a new folder made in the picker, its name checked against the rule first.
    await page.getByTestId('action-51').click();
    const picker = page.getByRole('dialog', { name: t.copyToFolder });
    await page.getByTestId('identify-target-category-0').waitFor();
    await button(picker, t.newFolder).click();
    const newClass = page.getByRole('dialog', { name: t.newClass });
    const className = newClass.getByLabel(t.className, { exact: true });
    await button(newClass, t.save).click();
    await page.getByText(t.nameEmpty).waitFor();
    await className.fill('bad name');
    await button(newClass, t.save).click();
    await page.getByText(t.nameBad).waitFor();
    await className.fill(folder);
    await button(newClass, t.save).click();
    await toast(page, t.created(folder));
    await expect.poll(() => page.getByTestId('identify-target-folder').textContent()).toContain(`${folder} (0)`);
    await button(picker, t.ok).click();
    await confirm(page);
    await toast(page, t.done);
    await expect.poll(() => attr(page, 'identify-selection-count', 'data-count')).toBe('0');

    // The folder holds the three.
    await chooseCategory(page, t.folders);
    const filed = await folderCount(page, folder);
    await expect.poll(filed.count).toBe('3');
    // Highlight it and keep a shortcut to it, from its menu.
    await page.getByTestId(`identify-node-menu-${filed.code}`).click();
    await page.getByTestId('identify-node-action-attention-add').click();
    await toast(page, t.done);
    await expect.poll(() => attr(page, `identify-node-${filed.code}`, 'data-attention')).toBe('true');
    await page.getByTestId(`identify-node-menu-${filed.code}`).click();
    await page.getByTestId('identify-node-action-toolbar-add').click();
    await page.getByTestId('identify-shortcuts').getByText(folder).waitFor();
    await filed.node.click();
    await expectGridCount(page, 3);
    const inFolder = await cells(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')));
    expect(inFolder.sort()).toEqual(
      ids
        .slice(0, 3)
        .map((id) => `roi-cell-${id}`)
        .sort(),
    );

    // Recycle one: it leaves the folder.
    await cells(page).nth(0).click();
    await page.getByTestId('action-2').click();
    await confirm(page);
    await toast(page, t.done);
    await expectGridCount(page, 2);
    await expect.poll(filed.count).toBe('2');

    // Restore it from the recycle bin: back in the folder.
    await chooseCategory(page, t.recycle);
    await expectGridCount(page, 1);
    await cells(page).nth(0).click();
    await page.getByTestId('action-113').click();
    await confirm(page);
    await toast(page, t.done);
    await expectGridCount(page, 0);
    await chooseCategory(page, t.folders);
    await expect.poll((await folderCount(page, folder)).count).toBe('3');
  }, 180_000);

  it('reviews with the keyboard, exports a selection as CSV and imports a class folder zip', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    let ids = await openSiteImages(page);
    const first = () => cells(page).first().getAttribute('data-testid');

    // Filters: recognition group, then a size range (sizes are 1500 + 100 per image, newest smallest).
    await page.getByTestId('identify-data-index-ai').click();
    await expectGridCount(page, ROIS - UNLABELLED);
    expect(await attr(page, 'identify-total', 'data-count')).toBe(String(ROIS - UNLABELLED));
    await page.getByTestId('identify-data-index-all').click();
    await expectGridCount(page, ROIS);
    await page.getByTestId('identify-size-min').fill('2000');
    await page.getByTestId('identify-size-min').press('Enter');
    await expectGridCount(page, 3);
    // Sort by size, largest first, then smallest first.
    await choose(page, 'identify-sort', t.size);
    await expect.poll(first).toBe(`roi-cell-${ids[ROIS - 1]}`);
    await page.getByTestId('identify-order').click();
    await expect.poll(first).toBe(`roi-cell-${ids[5]}`);
    ids = await openSiteImages(page);

    // Submit two for review, then approve one with A and reject the other with R.
    await cells(page).nth(3).click();
    await cells(page)
      .nth(4)
      .click({ modifiers: ['Shift'] });
    await expect.poll(() => attr(page, 'identify-selection-count', 'data-count')).toBe('2');
    await page.getByTestId('action-71').click();
    await toast(page, t.done);
    await chooseCategory(page, t.review);
    await expectGridCount(page, 2);
    await cells(page).nth(0).click();
    await expect.poll(() => attr(page, 'identify-detail', 'data-roi')).not.toBeNull();
    await page.keyboard.press('a');
    await expectGridCount(page, 1);
    await cells(page).nth(0).click();
    await expect
      .poll(() => attr(page, 'identify-detail', 'data-roi'))
      .toBe(
        await cells(page)
          .nth(0)
          .getAttribute('data-testid')
          .then((v) => v!.slice(9)),
      );
    await page.keyboard.press('r');
    await expectGridCount(page, 0);

    // Export a selection of the station's images as CSV: one row per ROI.
    await chooseCategory(page, t.site);
    await expectGridCount(page, ROIS);
    await cells(page).nth(0).click();
    await cells(page)
      .nth(1)
      .click({ modifiers: ['Shift'] });
    await button(page, t.exportSelected(2)).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV' }).click()]);
    const csv = fs
      .readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(csv[0]).toMatch(/^roi_id,dev_id,/);
    expect(csv.slice(1).map((line) => Number(line.split(',')[0]))).toEqual([ids[0], ids[1]].sort((a, b) => a! - b!));

    // Import a zip of one class folder: its images arrive as HI images of the station.
    const className = lang === 'en' ? '142E2E_import_en' : '143E2E_import_zh';
    const zipPath = `${await download.path()}.zip`;
    const twin = lang === 'en' ? '144E2E_twin_en' : '145E2E_twin_zh';
    fs.writeFileSync(zipPath, await classZip(className, lang === 'en' ? [9001, 9002] : [9101, 9102], twin));
    await button(page, t.importImages).click();
    const importing = page.getByRole('dialog', { name: t.importTitle });
    await importing.locator('input[type=file]').setInputFiles(zipPath);
    // Another instrument's images (issue 37): their pixel size goes with the import.
    await importing.getByRole('spinbutton').fill('0.5');
    const sent = page.waitForRequest((r) => r.url().includes('/api/roi/import?'));
    await button(importing, t.import).click();
    expect(new URL((await sent).url()).searchParams.get('pixel_size_um')).toBe('0.5');
    await expect.poll(() => attr(page, 'identify-import-report', 'data-imported'), { timeout: 30_000 }).toBe('2');
    // The report says where the capture times came from: the zip entries' own times here.
    expect(await page.getByTestId('identify-import-times').textContent()).toContain(
      lang === 'en' ? "2 from the files' own times" : '2 张取自文件自身的修改时间',
    );
    // The twin is listed, not dropped: same image, another class; the stored ROI keeps the first.
    expect(await attr(page, 'identify-import-conflicts', 'data-count')).toBe('1');
    expect(await page.getByTestId('identify-import-report').textContent()).toContain(`${twin}/copy.png`);
    await page.keyboard.press('Escape');
    await expectGridCount(page, ROIS + 2);
    await expect.poll(() => page.getByTestId('identify-node-count-t:hi').textContent()).toBe('2');
  }, 180_000);
});
