import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccessControl } from '../src/http/access.ts';
import { body, buildTestApp, createTeam, createUser, get, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import type { AuthService } from '../src/modules/auth/auth.service.ts';

describe('every API route must declare who may call it', () => {
  it('refuses to add an undeclared route', () => {
    const app = Fastify();
    registerAccessControl(app, {} as AuthService, async () => {
      throw new Error('no devices here');
    });
    expect(() => app.get('/api/undeclared', async () => 'x')).toThrow(/GET \/api\/undeclared declares no access/);
    expect(() => app.get('/api/declared', { config: { access: 'public' } }, async () => 'x')).not.toThrow();
  });
});

describe.each(dialects)('role checks on %s', (dialect) => {
  let env: TestEnv;
  const tokens: Record<string, string> = {};
  beforeEach(async () => {
    env = await buildTestApp(dialect, {
      beforeReady(app) {
        app.get('/api/test/super-only', { config: { access: ['superadmin'] } }, async () => ({ code: 1000, data: 'super' }));
        app.get('/api/test/admins', { config: { access: ['superadmin', 'administrator'] } }, async () => ({
          code: 1000,
          data: 'admins',
        }));
        app.post('/api/test/write', { config: { access: 'signed-in' } }, async () => ({ code: 1000, data: 'written' }));
      },
    });
    const team = await createTeam(env, 'T');
    await createUser(env, 'su', 'superadmin');
    await createUser(env, 'ad', 'administrator', { groupId: team });
    await createUser(env, 'us', 'user', { groupId: team });
    await createUser(env, 'demo', 'user', { groupId: team, demo: true });
    for (const account of ['su', 'ad', 'us', 'demo']) tokens[account] = await login(env, account);
  });
  afterEach(() => env.close());

  it('lets each role through only where it is listed', async () => {
    const expectations: Array<[string, string, number]> = [
      ['/api/test/super-only', 'su', 1000],
      ['/api/test/super-only', 'ad', 1011],
      ['/api/test/super-only', 'us', 1011],
      ['/api/test/admins', 'su', 1000],
      ['/api/test/admins', 'ad', 1000],
      ['/api/test/admins', 'us', 1011],
    ];
    for (const [url, account, code] of expectations) {
      const res = await get(env, url, tokens[account]);
      expect({ url, account, code: body(res).code }).toEqual({ url, account, code });
      if (code === 1011) {
        expect(res.statusCode).toBe(403);
        expect(body(res).msg).toBe('You do not have permission for this operation');
      }
    }
    expect(body(await get(env, '/api/test/super-only', tokens.us, 'zh')).msg).toBe('没有权限执行此操作');
  });

  it('refuses anonymous callers with 1010 before anything else', async () => {
    expect(body(await get(env, '/api/test/admins')).code).toBe(1010);
    const post = await env.app.inject({ method: 'POST', url: '/api/test/write', payload: {} });
    expect(body(post).code).toBe(1010);
  });

  it('keeps the demo account read-only', async () => {
    const demo = await env.app.inject({
      method: 'POST',
      url: '/api/test/write',
      headers: { 'x-token': tokens.demo, 'x-lang': 'en' },
      payload: {},
    });
    expect(body(demo)).toMatchObject({ code: 1011, msg: 'The demo account is read-only' });
    const user = await env.app.inject({ method: 'POST', url: '/api/test/write', headers: { 'x-token': tokens.us }, payload: {} });
    expect(body(user)).toMatchObject({ code: 1000, data: 'written' });
    // Reading and signing out still work for the demo account.
    expect(body(await get(env, '/api/wyrbac/login/user-info', tokens.demo)).data).toMatchObject({ demo: true });
    expect(body(await get(env, '/api/wyrbac/login/logout', tokens.demo)).code).toBe(1000);
  });
});
