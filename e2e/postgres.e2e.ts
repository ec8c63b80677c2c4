import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './support/browser.ts';
import { expectPath, signIn, signOut } from './support/console.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, PG_URL, pgReachable } from './support/server.ts';
import { useConsole } from './support/use-console.ts';

const hasPg = await pgReachable();
if (!hasPg) {
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI but ${PG_URL} is not reachable`);
  console.warn(`\n*** SKIPPING the PostgreSQL end-to-end test: ${PG_URL} is not reachable.\n`);
}

describe.skipIf(!chromiumAvailable || !hasPg)('the console on PostgreSQL', () => {
  const app = useConsole({ server: { dialect: 'postgres' } });

  it('signs in, moves under the guard and signs out', async () => {
    expect(app.server.log()).toContain('Database: PostgreSQL');
    const page = await app.newPage();
    await signIn(page, 'admin', ADMIN_PASSWORD, '/login?redirect=/manage/group');
    await expectPath(page, '/manage/group');
    await page.getByTestId('header-user').getByText('Administrator').waitFor();
    await signOut(page);
    await page.goto('/home');
    await expectPath(page, '/login');
    await signIn(page, 'demo_user', DEMO_PASSWORD);
    await page.goto('/manage/group');
    await expectPath(page, '/403');
  });
});
