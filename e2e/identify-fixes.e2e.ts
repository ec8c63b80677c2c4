import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { choose, confirm, toast } from './support/antd.ts';
import { seedLabelledStation } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { chooseCategory, storage } from './support/console.ts';
import { ADMIN_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

/** Three unlabelled ROIs (newest first in the grid), then two the instrument labelled 1 with confidence 0.9. */
const UNLABELLED = 3;
const ROIS = 5;
const SITE = 'E2E fixes buoy with a long site name that does not fit the tree';

// The instrument sends a confidence of 0 with an unlabelled image: it must not show as one.
const seedStation = (baseUrl: string, token: string) =>
  seedLabelledStation(
    baseUrl,
    token,
    { dev_id: '42001', site_name: SITE },
    { rois: ROIS, unlabelled: UNLABELLED, pngBase: 4200 },
  );

const cells = (page: Page) => page.locator('[data-testid^="roi-cell-"]');
const detail = (page: Page, key: string) => page.getByTestId(`identify-detail-${key}`);

async function expectGridCount(page: Page, n: number) {
  if (n === 0) {
    await page.getByTestId('identify-grid-empty').waitFor();
    return;
  }
  await expect.poll(() => page.getByTestId('identify-grid').getAttribute('data-count'), { timeout: 15_000 }).toBe(String(n));
}

/**
 * Issue 20's identify screens, in Chromium against the real server: who labelled an image, the detail pane after its
 * image left the list, the favourites confirmation, the team hint for a superadmin, where import is offered, and the
 * by-device tree's counts at 1440×900.
 */
describe.skipIf(!chromiumAvailable)('identify workspace fixes in Chromium', () => {
  const app = useConsole({ lang: 'en', viewport: { width: 1440, height: 900 } });

  it('says who labelled an image, confirms favourites, and moves on when the shown image leaves the list', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    await seedStation(app.server.url, (await storage(page, 'token'))!);
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();

    // All teams: no class can be made in the folders, and the pane says why.
    await chooseCategory(page, 'Folders');
    await page.getByTestId('identify-new-class-hint').waitFor();
    expect(await page.getByTestId('identify-new-class-hint').textContent()).toBe('Pick a team above to create a class here');
    expect(await page.getByTestId('identify-new-class').isDisabled()).toBe(true);
    await choose(page, 'identify-team', 'Demo Team');
    await expect.poll(() => page.getByTestId('identify-new-class').isEnabled()).toBe(true);
    expect(await page.getByTestId('identify-new-class-hint').count()).toBe(0);

    // Site images of the station: an instrument-labelled image and an unlabelled one in the detail pane.
    await chooseCategory(page, 'Site images');
    await choose(page, 'identify-station', SITE);
    await expectGridCount(page, ROIS);
    await cells(page)
      .nth(ROIS - 1)
      .click();
    await expect.poll(() => detail(page, 'labelled-by').textContent()).toBe('The instrument');
    expect(await detail(page, 'confidence').textContent()).toBe('90.0 %');
    expect(await page.getByTestId('ai-none').textContent()).toBe('No model label: the instrument labelled this image');
    await cells(page).nth(0).click();
    await expect.poll(() => detail(page, 'labelled-by').textContent()).toBe('Nobody (unidentified)');
    expect(await detail(page, 'confidence').count()).toBe(0);
    // Import is offered here (images of a station).
    expect(await page.getByTestId('identify-import').count()).toBe(1);

    // Add to favourites asks first (spec §8), in words for one image.
    await page.getByTestId('action-61').click();
    await page.locator('.ant-modal-confirm', { hasText: 'Apply this to 1 image?' }).waitFor();
    await confirm(page);
    await toast(page, 'Operation successful: 1 image changed, 0 unchanged');

    // Favourites: nothing to import here. Remove the shown image: the pane lets it go, no "ROI info. obtain fail".
    await chooseCategory(page, 'Favorites');
    await expectGridCount(page, 1);
    expect(await page.getByTestId('identify-import').count()).toBe(0);
    await cells(page).nth(0).click();
    await expect.poll(() => page.getByTestId('identify-detail').getAttribute('data-roi')).not.toBeNull();
    await page.getByTestId('action-62').click();
    await confirm(page);
    await toast(page, 'Operation successful');
    await expectGridCount(page, 0);
    await page.getByTestId('identify-detail-none').waitFor();
    await page.waitForTimeout(1500);
    expect(await page.locator('.ant-message-notice', { hasText: 'ROI info. obtain fail' }).count()).toBe(0);

    // Recycle bin and review: no import either, and the folders have no "show empty classes" switch.
    for (const name of ['Recycle bin', 'Review']) {
      await chooseCategory(page, name);
      await page.getByTestId('identify-total').waitFor();
      expect(await page.getByTestId('identify-import').count()).toBe(0);
    }
    await chooseCategory(page, 'Folders');
    await page.getByTestId('identify-new-class').waitFor();
    expect(await page.getByTestId('identify-show-empty').count()).toBe(0);

    // By device at 1440×900: the station's count shows beside its cut name, inside the pane.
    await chooseCategory(page, 'All images (by device)');
    const count = page.locator('[data-testid^="identify-node-count-s:"]').first();
    await count.waitFor();
    expect(await count.textContent()).toBe(String(ROIS));
    const pane = (await page.getByTestId('identify-left').boundingBox())!;
    const box = (await count.boundingBox())!;
    expect(box.width).toBeGreaterThan(0);
    expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width + 0.5);
  }, 180_000);
});
