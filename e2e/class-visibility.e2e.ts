import { type ClassItem, type TreeNode } from '@ipp/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { button, choose, toast } from './support/antd.ts';
import { call, login, registerStation, uploadRoi } from './support/api.ts';
import { chromiumAvailable } from './support/browser.ts';
import { chooseCategory, storage } from './support/console.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const SITE = 'E2E visibility buoy';

/** A station of the demo team with one image the instrument labelled 1 (001Copepod). */
async function seedStation(baseUrl: string, token: string): Promise<number> {
  const saved = await registerStation(baseUrl, token, { dev_id: '42101', site_name: SITE });
  const png = await sharp({ create: { width: 24, height: 24, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  await uploadRoi(baseUrl, saved.device_key, {
    capturedAt: Date.now() - 60_000,
    labelIndex: 1,
    confidence: 0.9,
    sizePx: 1500,
    png,
  });
  return saved.ipp.id;
}

const classIds = (nodes: TreeNode[]): (number | null)[] => nodes.flatMap((n) => [n.class_id, ...classIds(n.children)]);

/**
 * Issue 20: class visibility (spec §3/§4) does something. A team administrator hides a class from the team's users
 * in the console; the team's user no longer gets it in the class list or the tree, the administrator still sees it
 * marked, and shows it again. A superadmin looking at all teams is told to pick one.
 */
describe.skipIf(!chromiumAvailable)('class visibility in Chromium', () => {
  const app = useConsole({ lang: 'en', viewport: { width: 1440, height: 900 } });

  it("hides a class from the team's users and shows it again", async () => {
    const ippId = await seedStation(app.server.url, await login(app.server.url, 'admin', ADMIN_PASSWORD));
    const userToken = await login(app.server.url, 'demo_user', DEMO_PASSWORD);
    const copepod = (await call<ClassItem[]>(app.server.url, userToken, '/tool/sys-init')).find((c) => c.title === '001Copepod')!;
    expect(copepod).toBeDefined();
    const userTree = () =>
      call<TreeNode[]>(app.server.url, userToken, `/roi-index/index?category_id=-100&ipp_id=${ippId}&show_empty=1`);
    expect(classIds(await userTree())).toContain(copepod.id);

    const page = await app.signIn('demo_admin', DEMO_PASSWORD);
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await chooseCategory(page, 'Site images');
    await button(page, 'Class visibility').click();
    const dialog = page.getByRole('dialog', { name: "Classes shown to your team's users" });
    const search = dialog.getByPlaceholder('Find a class');
    await search.waitFor();
    await search.fill('Copepod');
    const toggle = page.getByTestId(`class-visibility-switch-${copepod.id}`);
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId(`class-visibility-hidden-${copepod.id}`).count()).toBe(0);

    await toggle.click();
    await toast(page, "001Copepod is hidden from your team's users");
    await page.getByTestId(`class-visibility-hidden-${copepod.id}`).waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    // The team's user: gone from the class list (every class picker) and from the class trees.
    const userClasses = await call<ClassItem[]>(app.server.url, userToken, '/tool/sys-init');
    expect(userClasses.map((c) => c.id)).not.toContain(copepod.id);
    expect(classIds(await userTree())).not.toContain(copepod.id);
    // The administrator still gets it, marked.
    const adminToken = await storage(page, 'token');
    const asAdmin = (await call<ClassItem[]>(app.server.url, adminToken!, '/tool/sys-init')).find((c) => c.id === copepod.id);
    expect(asAdmin?.visible).toBe(false);
    // …and in its tree, with the hidden mark.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await choose(page, 'identify-station', SITE);
    await page.locator('[data-testid^="identify-node-hidden-"]').first().waitFor();
    expect(await page.locator('[data-testid^="identify-node-hidden-"]').count()).toBe(1);
    await button(page, 'Class visibility').click();
    await search.fill('Copepod');

    // Shown again.
    await toggle.click();
    await toast(page, "001Copepod is shown to your team's users");
    await expect.poll(() => page.getByTestId(`class-visibility-hidden-${copepod.id}`).count()).toBe(0);
    expect((await call<ClassItem[]>(app.server.url, userToken, '/tool/sys-init')).map((c) => c.id)).toContain(copepod.id);
    expect(classIds(await userTree())).toContain(copepod.id);
  });

  it("leaves a hidden class out of the user's Data detail class choice; the administrator still has it (issue 37)", async () => {
    const admin = await login(app.server.url, 'admin', ADMIN_PASSWORD);
    const saved = await registerStation(app.server.url, admin, { dev_id: '42102', site_name: `${SITE} 2` });
    for (const labelIndex of [1, 2]) {
      const png = await sharp({
        create: { width: 24, height: 24, channels: 3, background: { r: 40 * labelIndex, g: 90, b: 160 } },
      })
        .png()
        .toBuffer();
      await uploadRoi(app.server.url, saved.device_key, {
        capturedAt: Date.now() - 60_000,
        labelIndex,
        confidence: 0.9,
        sizePx: 1500,
        png,
      });
    }
    const ippId = saved.ipp.id;
    const adminToken = await login(app.server.url, 'demo_admin', DEMO_PASSWORD);
    const copepod = (await call<ClassItem[]>(app.server.url, adminToken, '/tool/sys-init')).find(
      (c) => c.title === '001Copepod',
    )!;
    await call(app.server.url, adminToken, '/roi-index/change-status', { class_id: copepod.id, status: 0 });
    try {
      /** The class choice of Data detail's ecology card, as one signed-in person sees it. */
      const choices = async (account: string) => {
        const page = await app.signIn(account, DEMO_PASSWORD);
        await page.goto(`/ipp/ipp-view-detail?id=${ippId}`);
        await page.getByTestId('ecology-card').getByTestId('ecology-classes').click();
        // One class at least for everyone: 002Diatom_chain is hidden from nobody.
        const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
        await options.filter({ hasText: '002' }).first().waitFor();
        const texts = await options.allTextContents();
        await page.close();
        return texts.join(' | ');
      };
      expect(await choices('demo_user')).not.toContain('001Copepod');
      expect(await choices('demo_admin')).toContain('001Copepod');
    } finally {
      // Signing demo_admin in above ended the API session (one session per account): sign in again to show it.
      const again = await login(app.server.url, 'demo_admin', DEMO_PASSWORD);
      await call(app.server.url, again, '/roi-index/change-status', { class_id: copepod.id, status: 1 });
    }
  });

  it('asks a superadmin looking at all teams to pick a team first', async () => {
    const page = await app.signIn('admin', ADMIN_PASSWORD);
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await chooseCategory(page, 'Site images');
    await button(page, 'Class visibility').click();
    await page.getByTestId('class-visibility-pick-team').waitFor();
    expect(await page.getByTestId('class-visibility-pick-team').textContent()).toContain('Pick a team first');
  });
});
