import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { expectPath, storage } from './support/console.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const builtDist = path.resolve(import.meta.dirname, '../apps/web/dist');

describe.skipIf(!chromiumAvailable)('idle sign-out and new-version notice (fake clock)', () => {
  let dist: string | undefined;
  // Registered before the console's hooks, so it runs after its server has stopped.
  afterAll(() => {
    if (dist) fs.rmSync(dist, { recursive: true, force: true });
  });
  const app = useConsole({
    clock: true,
    server: () => {
      // A private copy of the build, so the test can "deploy" a new version under the running console.
      dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-dist-'));
      fs.cpSync(builtDist, dist, { recursive: true });
      return { env: { WEB_DIST: dist } };
    },
  });

  it('signs out after 30 minutes without mouse movement, not before', async () => {
    const page = await app.signIn('demo_user', DEMO_PASSWORD);
    await page.mouse.move(200, 200);
    await page.clock.runFor(29 * 60_000);
    expect(new URL(page.url()).pathname).toBe('/home');
    // Movement resets the idle time.
    await page.mouse.move(300, 260);
    await page.clock.runFor(20 * 60_000);
    expect(new URL(page.url()).pathname).toBe('/home');
    await page.clock.runFor(11 * 60_000);
    await expectPath(page, '/login');
    await page.getByTestId('signed-out-notice').waitFor();
    expect(await storage(page, 'token')).toBeNull();
  });

  it('offers a reload when the root page names another script', async () => {
    const page = await app.signIn('demo_user', DEMO_PASSWORD);
    await page.clock.runFor(11_000);
    expect(await page.getByTestId('version-notice').count()).toBe(0);
    // Deploy: the entry script's hashed name changes.
    const indexFile = path.join(dist!, 'index.html');
    const html = fs.readFileSync(indexFile, 'utf8');
    const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
    expect(entry).toMatch(/\/assets\/.+\.js$/);
    fs.writeFileSync(indexFile, html.replace(entry ?? '', (entry ?? '').replace(/\.js$/, '-next.js')));
    await page.clock.runFor(11_000);
    await page.getByTestId('version-notice').waitFor({ timeout: 15_000 });
    await page.getByTestId('version-reload').waitFor();
    fs.writeFileSync(indexFile, html);
  });
});
