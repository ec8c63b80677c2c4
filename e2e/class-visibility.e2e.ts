import { DEFAULT_IPP_CONFIG, type ClassItem, type TreeNode } from '@ipp/contracts';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choose, setLanguage, toast } from './support/antd.ts';
import { chromiumAvailable, launchBrowser, newPage } from './support/browser.ts';
import { chooseCategory, signIn } from './support/console.ts';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './support/server.ts';

const DEMO_PASSWORD = 'demo123';
const SITE = 'E2E visibility buoy';

/** A station of the demo team with one image the instrument labelled 1 (001Copepod). */
async function seedStation(baseUrl: string, token: string): Promise<number> {
  const teams = await call<{ id: number; name: string }[]>(baseUrl, token, '/group/index?page=1&limit=100');
  const team = teams.find((each) => each.name.startsWith('Demo Team'))!;
  const saved = await call<{ ipp: { id: number }; device_key: string }>(baseUrl, token, '/ipp/save', {
    dev_id: '42101',
    site_name: SITE,
    country: 'CN',
    longitude: 120.3,
    latitude: 36.1,
    group_id: team.id,
    serial_number: 'SN-42101',
    config: DEFAULT_IPP_CONFIG,
  });
  const png = await sharp({ create: { width: 24, height: 24, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set('captured_at', String(Date.now() - 60_000));
  form.set('label_index', '1');
  form.set('confidence', '0.9');
  form.set('size_px', '1500');
  form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'roi.png');
  const res = await fetch(`${baseUrl}/api/device/rois`, {
    method: 'POST',
    headers: { 'x-device-key': saved.device_key },
    body: form,
  });
  const answer = (await res.json()) as { code: number };
  if (answer.code !== 1000) throw new Error(`upload: ${JSON.stringify(answer)}`);
  return saved.ipp.id;
}

const classIds = (nodes: TreeNode[]): (number | null)[] => nodes.flatMap((n) => [n.class_id, ...classIds(n.children)]);

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

async function login(baseUrl: string, account: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/wyrbac/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account, password }),
  });
  const envelope = (await res.json()) as { code: number; data: { token: string } };
  if (envelope.code !== 1000) throw new Error(`login ${account}: ${JSON.stringify(envelope)}`);
  return envelope.data.token;
}

/**
 * Issue 20: class visibility (spec §3/§4) does something. A team administrator hides a class from the team's users
 * in the console; the team's user no longer gets it in the class list or the tree, the administrator still sees it
 * marked, and shows it again. A superadmin looking at all teams is told to pick one.
 */
describe.skipIf(!chromiumAvailable)('class visibility in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("hides a class from the team's users and shows it again", async () => {
    const ippId = await seedStation(server.url, await login(server.url, 'admin', ADMIN_PASSWORD));
    const userToken = await login(server.url, 'demo_user', DEMO_PASSWORD);
    const copepod = (await call<ClassItem[]>(server.url, userToken, '/tool/sys-init')).find((c) => c.title === '001Copepod')!;
    expect(copepod).toBeDefined();
    const userTree = () =>
      call<TreeNode[]>(server.url, userToken, `/roi-index/index?category_id=-100&ipp_id=${ippId}&show_empty=1`);
    expect(classIds(await userTree())).toContain(copepod.id);

    const { context, page } = await newPage(browser, server.url);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/login');
    await setLanguage(page, 'en');
    await signIn(page, 'demo_admin', DEMO_PASSWORD);
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await chooseCategory(page, 'Site images');
    await page.getByTestId('identify-class-visibility').click();
    const search = page.getByTestId('class-visibility-search').locator('input');
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
    const userClasses = await call<ClassItem[]>(server.url, userToken, '/tool/sys-init');
    expect(userClasses.map((c) => c.id)).not.toContain(copepod.id);
    expect(classIds(await userTree())).not.toContain(copepod.id);
    // The administrator still gets it, marked.
    const adminToken = await page.evaluate(() => localStorage.getItem('token'));
    const asAdmin = (await call<ClassItem[]>(server.url, adminToken!, '/tool/sys-init')).find((c) => c.id === copepod.id);
    expect(asAdmin?.visible).toBe(false);
    // …and in its tree, with the hidden mark.
    await page.keyboard.press('Escape');
    await page.getByTestId('class-visibility-search').waitFor({ state: 'hidden' });
    await choose(page, 'identify-station', SITE);
    await page.locator('[data-testid^="identify-node-hidden-"]').first().waitFor();
    expect(await page.locator('[data-testid^="identify-node-hidden-"]').count()).toBe(1);
    await page.getByTestId('identify-class-visibility').click();
    await page.getByTestId('class-visibility-search').locator('input').fill('Copepod');

    // Shown again.
    await toggle.click();
    await toast(page, "001Copepod is shown to your team's users");
    await expect.poll(() => page.getByTestId(`class-visibility-hidden-${copepod.id}`).count()).toBe(0);
    expect((await call<ClassItem[]>(server.url, userToken, '/tool/sys-init')).map((c) => c.id)).toContain(copepod.id);
    expect(classIds(await userTree())).toContain(copepod.id);
    await context.close();
  });

  it('asks a superadmin looking at all teams to pick a team first', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/login');
    await setLanguage(page, 'en');
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto('/identify');
    await page.getByTestId('identify-page').waitFor();
    await chooseCategory(page, 'Site images');
    await page.getByTestId('identify-class-visibility').click();
    await page.getByTestId('class-visibility-pick-team').waitFor();
    expect(await page.getByTestId('class-visibility-pick-team').textContent()).toContain('Pick a team first');
    await context.close();
  });
});
