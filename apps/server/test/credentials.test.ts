import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/actors.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp } from './helpers/device.ts';

/**
 * ASVS V3/V4: a device key opens only device routes, a user's token only user routes. Walks every route the app
 * declares (app.routeAccess), so a route added later is covered without touching this test.
 */
describe.each(dialects)('device keys and user tokens stay on their own routes on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let key: string;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    key = (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1')).key;
  });
  afterEach(() => env.close());

  it('refuses a valid device key on every user route and a valid superadmin token on every device route', async () => {
    const routes = env.app.routeAccess.filter((r) => r.access !== 'public' && r.method !== 'HEAD');
    const device = routes.filter((r) => r.access === 'device');
    const user = routes.filter((r) => r.access !== 'device');
    expect(device.length).toBeGreaterThanOrEqual(3);
    expect(user.length).toBeGreaterThan(50);
    const url = (path: string) => path.replace(/:[A-Za-z_]+/g, '1');
    const seen: string[] = [];
    for (const r of routes) {
      const credentials = r.access === 'device' ? { 'x-token': w.tokens.superadmin } : { 'x-device-key': key };
      const res = await env.app.inject({
        method: r.method as 'GET',
        url: url(r.url),
        headers: { ...credentials, 'x-lang': 'en' },
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
      });
      const answer = res.json() as { code: number; msg: string };
      seen.push(`${r.method} ${r.url} ${answer.code}`);
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode, code: answer.code }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
        code: 1010,
      });
    }
    expect(seen.length).toBe(routes.length);
  });
});
