import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, type TestEnv } from './helpers/build.ts';

describe('bad input never breaks the session routes', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await buildTestApp('sqlite');
    await createUser(env, 'alice', 'user');
  });
  afterAll(() => env.close());

  it('answers any sign-in body with the envelope, a 1xxx code and no 5xx', async () => {
    const users = await env.db.kysely.selectFrom('users').selectAll().execute();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.record({ username: fc.anything(), password: fc.anything() }, { requiredKeys: [] }),
          fc.record({ username: fc.string({ maxLength: 80 }), password: fc.string({ maxLength: 140 }) }),
        ),
        fc.constantFrom('zh', 'en'),
        async (payload, lang) => {
          // Keep the account from being throttled so every property run exercises validation, not the lock.
          await env.db.kysely.deleteFrom('login_failures').execute();
          const res = await env.app.inject({
            method: 'POST',
            url: '/api/wyrbac/login/login',
            headers: { 'content-type': 'application/json', 'x-lang': lang },
            payload: JSON.stringify(payload) ?? 'undefined',
          });
          expect(res.statusCode).toBeLessThan(500);
          const b = res.json() as { code: number; msg: string; data: unknown };
          expect([1001, 1002]).toContain(b.code);
          expect(typeof b.msg).toBe('string');
          expect(b.msg.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 150 },
    );
    // A refused request writes nothing: the users are exactly as before and no session exists.
    expect(await env.db.kysely.selectFrom('users').selectAll().execute()).toEqual(users);
    expect(await env.db.kysely.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });
});
