import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser, newPage } from './support/browser.ts';
import { expectPath, signIn, signOut } from './support/console.ts';
import { ADMIN_PASSWORD, PG_URL, pgReachable, startServer, type RunningServer } from './support/server.ts';

const hasPg = await pgReachable();
if (!hasPg) {
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI but ${PG_URL} is not reachable`);
  console.warn(`\n*** SKIPPING the PostgreSQL end-to-end test: ${PG_URL} is not reachable.\n`);
}

describe.skipIf(!chromiumAvailable || !hasPg)('the console on PostgreSQL', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ dialect: 'postgres' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in, moves under the guard and signs out', async () => {
    expect(server.log()).toContain('Database: PostgreSQL');
    const { context, page } = await newPage(browser, server.url);
    await signIn(page, 'admin', ADMIN_PASSWORD, '/login?redirect=/manage/group');
    await expectPath(page, '/manage/group');
    await page.getByTestId('header-user').getByText('Administrator').waitFor();
    await signOut(page);
    await page.goto('/home');
    await expectPath(page, '/login');
    await signIn(page, 'demo_user', 'demo123');
    await page.goto('/manage/group');
    await expectPath(page, '/403');
    await context.close();
  });
});
