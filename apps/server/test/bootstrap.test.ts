import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ensureSuperadmin } from '../src/seed/bootstrap.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { body, buildTestApp, get, login, loginRequest, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';

describe.each(dialects)('first start on %s', (dialect) => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
  });
  afterEach(() => env.close());

  it('runs migrations again without change', async () => {
    expect(await migrateToLatest(env.db)).toEqual([]);
  });

  it('creates the superadmin once, with a generated password that works', async () => {
    const first = await ensureSuperadmin(env.db, env.clock.read, 10);
    expect(first.created).toBe(true);
    expect(first.generatedPassword).toMatch(/^[\w-]{12}$/);
    expect(body(await loginRequest(env, 'admin', first.generatedPassword ?? '')).data).toMatchObject({ role: 'superadmin' });
    const second = await ensureSuperadmin(env.db, env.clock.read, 10);
    expect(second).toEqual({ created: false, generatedPassword: null });
  });

  it('uses ADMIN_PASSWORD when given and prints nothing', async () => {
    expect(await ensureSuperadmin(env.db, env.clock.read, 10, 'chosen-pass')).toEqual({ created: true, generatedPassword: null });
    expect(body(await loginRequest(env, 'admin', 'chosen-pass')).code).toBe(1000);
  });

  it('seeds a demo team with an administrator, a user and the read-only demo account, once', async () => {
    expect(await seedDemo(env.db, env.clock.read, 10)).toEqual({ created: true });
    expect(await seedDemo(env.db, env.clock.read, 10)).toEqual({ created: false });
    for (const account of DEMO_ACCOUNTS) {
      const token = await login(env, account.account, DEMO_PASSWORD);
      const info = body(await get(env, '/api/wyrbac/login/user-info', token));
      expect(info.data).toMatchObject({ role: account.role, demo: account.demo, group: { name: 'Demo Team 演示团队' } });
    }
  });
});
