import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';

/** Any JSON value, weighted toward the shapes that break naive handlers. */
const nasty = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom('', ' ', "' or 1=1 --", '../../etc/passwd', '%00', '<script>', 'null', '-1', '1e309', 'x'.repeat(5000)),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 53, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

const ROUTES: Array<{ url: string; fields: string[] }> = [
  { url: '/api/group/save', fields: ['id', 'name'] },
  { url: '/api/group/delete', fields: ['id'] },
  { url: '/api/user/save', fields: ['id', 'account', 'name', 'password', 'phone', 'email', 'group_id', 'role'] },
  { url: '/api/user/delete', fields: ['id'] },
  {
    url: '/api/setting/save',
    fields: ['team_max_admins', 'team_max_users', 'idle_minutes', 'default_language', 'site_title', 'wall_max'],
  },
  { url: '/api/setting/save-role', fields: ['routes'] },
  { url: '/api/get-lang/save', fields: ['items'] },
  { url: '/api/account/change-pass-wd', fields: ['password', 'newpassword'] },
  {
    url: '/api/ipp/save',
    fields: ['id', 'dev_id', 'site_name', 'country', 'longitude', 'latitude', 'group_id', 'serial_number', 'config'],
  },
  { url: '/api/ipp/delete', fields: ['id'] },
  { url: '/api/ipp/rotate-key', fields: ['id'] },
  { url: '/api/site/ipp-one', fields: ['id'] },
  { url: '/api/setting/set-group-view', fields: ['group_id', 'ids'] },
];
const QUERIES = [
  '/api/group/index',
  '/api/user/index',
  '/api/user/view',
  '/api/get-lang/lang',
  '/api/ipp/index',
  '/api/setting/get-group-view',
];

describe('bad input to the administration calls', () => {
  let env: TestEnv;
  let w: World;
  beforeAll(async () => {
    env = await buildTestApp('sqlite');
    w = await buildWorld(env);
  });
  afterAll(() => env.close());

  const snapshot = async () =>
    JSON.stringify(
      await Promise.all(
        (['teams', 'users', 'settings', 'translations', 'ipps', 'user_views'] as const).map((t) =>
          env.db.kysely.selectFrom(t).selectAll().execute(),
        ),
      ),
    );

  it('always answers the envelope with a clear code, never a 5xx, and a refused write changes nothing', async () => {
    const bodyArb = fc
      .constantFrom(...ROUTES)
      .chain((route) =>
        fc.tuple(fc.constant(route.url), fc.dictionary(fc.constantFrom(...route.fields, 'extra'), nasty, { maxKeys: 6 })),
      );
    await fc.assert(
      fc.asyncProperty(bodyArb, fc.constantFrom('zh', 'en'), async ([url, payload], lang) => {
        const before = await snapshot();
        const res = await call(env, w.tokens.superadmin, 'POST', url, payload, lang);
        expect(res.statusCode).toBeLessThan(500);
        const b = res.json() as { code: number; msg?: string };
        expect([1000, 1001, 1002]).toContain(b.code);
        if (b.code !== 1000) {
          expect(b.msg?.length).toBeGreaterThan(0);
          expect(await snapshot()).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers any query string with the envelope and no 5xx', async () => {
    const queryArb = fc.tuple(
      fc.constantFrom(...QUERIES),
      fc.dictionary(
        fc.constantFrom('page', 'limit', 'id', 'name', 'account', 'email', 'phone', 'group_id', 'language', 'keyword'),
        fc.string({ maxLength: 40 }),
        { maxKeys: 5 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(queryArb, async ([path, query]) => {
        const res = await call(env, w.tokens.superadmin, 'GET', `${path}?${new URLSearchParams(query).toString()}`);
        expect(res.statusCode).toBeLessThan(500);
        expect([1000, 1002]).toContain((res.json() as { code: number }).code);
      }),
      { numRuns: 200 },
    );
  });
});
