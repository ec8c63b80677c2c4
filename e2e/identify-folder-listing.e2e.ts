import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose } from './support/antd.ts';
import { call, seedLabelledStation } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { chooseCategory, storage } from './support/console.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

/** More than one page of GET /roi/index (200), less than one of the folder listing (1000). */
const IMAGES = 230;

/**
 * Issue 37: the console lists a folder through spec §9's folder listing, GET /folder/get-folder-by-roi-index with
 * 1000 a page, in Chromium against the real server: a folder of 230 images comes in one request, not two of 200.
 */
describe.skipIf(!chromiumAvailable)('identify folder listing in Chromium', () => {
  const app = useConsole({ lang: 'en' });

  it('opens a folder with one request of the folder listing, limit 1000, and shows every image', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    const token = (await storage(page, 'token'))!;
    const base = app.server.url;
    const ippId = await seedLabelledStation(
      base,
      token,
      { dev_id: '43001', site_name: 'E2E folder listing' },
      { rois: IMAGES, unlabelled: IMAGES, pngBase: 430_000 },
    );
    const teams = await call<{ id: number; name: string }[]>(base, token, '/group/index?page=1&limit=100');
    const team = teams.find((each) => each.name.startsWith('Demo Team'))!;
    const folder = await call<{ roi_index_id: number }>(base, token, '/roi-index/save', {
      title: '130Listing',
      category_id: 0,
      group_id: team.id,
    });
    const site = await call<{ items: { id: number }[] }>(
      base,
      token,
      `/roi/index?category_id=-100&ipp_id=${ippId}&limit=1000&group_id=${team.id}`,
    );
    expect(site.items).toHaveLength(IMAGES);
    await call(base, token, '/roi/save-move', {
      type: '51',
      category_id: -100,
      roi_ids: site.items.map((r) => r.id),
      target_id: folder.roi_index_id,
    });

    const listings: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/folder/get-folder-by-roi-index' || url.pathname === '/api/roi/index') listings.push(url);
    });
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await choose(page, 'identify-team', 'Demo Team');
    await chooseCategory(page, 'Folders');
    await page.getByTestId(`identify-node-f:${folder.roi_index_id}`).click();
    await expectGridCount(page, IMAGES);

    const ofFolder = listings.filter(
      (url) =>
        url.searchParams.get('roi_index_id') === String(folder.roi_index_id) ||
        url.searchParams.get('code') === `f:${folder.roi_index_id}`,
    );
    expect(ofFolder.map((url) => url.pathname)).toEqual(['/api/folder/get-folder-by-roi-index']);
    expect(ofFolder[0]!.searchParams.get('limit')).toBe('1000');
    expect(ofFolder[0]!.searchParams.get('page')).toBe('1');
    expect(await page.getByTestId('identify-total').textContent()).toBe(`${IMAGES} images`);
  });
});

async function expectGridCount(page: Page, n: number) {
  await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe(String(n));
}
