import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../src/security/password.ts';
import { body, buildTestApp, createTeam, createUser, get, login, loginRequest, PASSWORD, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';

const USER_INFO = '/api/wyrbac/login/user-info';
const LOGOUT = '/api/wyrbac/login/logout';

describe.each(dialects)('session on %s', (dialect) => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    const team = await createTeam(env, 'Team A');
    await createUser(env, 'alice', 'administrator', { groupId: team });
    await createUser(env, 'root', 'superadmin');
  });
  afterEach(() => env.close());

  it('signs in and returns the user with roles, name, team and avatar', async () => {
    const res = await loginRequest(env, 'alice');
    expect(res.statusCode).toBe(200);
    const login = body(res);
    expect(login).toMatchObject({ code: 1000, model: null, count: 0, index: null });
    expect(login.data).toMatchObject({ role: 'administrator', name: 'Name of alice', demo: false });
    const token = (login.data as { token: string }).token;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);

    const info = body(await get(env, USER_INFO, token));
    expect(info.code).toBe(1000);
    expect(info.data).toMatchObject({
      account: 'alice',
      roles: ['administrator'],
      role: 'administrator',
      avatar: '',
      group: { name: 'Team A' },
    });
  });

  it('stores only a hash of the token', async () => {
    const token = await login(env, 'alice');
    const rows = await env.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashToken(token));
    expect(rows[0]?.token_hash).not.toContain(token);
  });

  it('refuses a wrong password and an unknown account with the same words', async () => {
    const wrong = body(await loginRequest(env, 'alice', 'not-the-password'));
    const unknown = body(await loginRequest(env, 'nobody', 'not-the-password'));
    expect(wrong.code).toBe(1001);
    expect(unknown.code).toBe(1001);
    expect(wrong.msg).toBe('Incorrect account or password');
    expect(unknown.msg).toBe(wrong.msg);
    expect(body(await loginRequest(env, 'alice', 'not-the-password', 'zh')).msg).toBe('账号或密码错误');
  });

  it('ends the session on sign-out', async () => {
    const token = await login(env, 'alice');
    expect(body(await get(env, LOGOUT, token)).code).toBe(1000);
    const after = await get(env, USER_INFO, token);
    expect(after.statusCode).toBe(401);
    expect(body(after)).toMatchObject({ code: 1010, msg: 'Error Token,Please login again.' });
  });

  it('answers a missing or forged token with 1010 in the caller language', async () => {
    expect(body(await get(env, USER_INFO))).toMatchObject({ code: 1010, data: 'Error Token,Please login again.' });
    expect(body(await get(env, USER_INFO, 'forged-token', 'zh'))).toMatchObject({ code: 1010, data: '登录已失效，请重新登录' });
  });

  it('displaces the older token when the same account signs in again', async () => {
    const first = await login(env, 'alice');
    const second = await login(env, 'alice');
    const old = body(await get(env, USER_INFO, first));
    expect(old).toMatchObject({ code: 1010, msg: 'Auth Token Failed.' });
    expect(body(await get(env, USER_INFO, first, 'zh')).msg).toBe('该账号异地登录，请重新登录');
    expect(body(await get(env, USER_INFO, second)).code).toBe(1000);
    // Another account's session is untouched.
    const rootToken = await login(env, 'root');
    await login(env, 'alice');
    expect(body(await get(env, USER_INFO, rootToken)).code).toBe(1000);
  });

  it('expires a session idle for more than 30 minutes', async () => {
    const token = await login(env, 'alice');
    env.clock.advance(29 * 60_000);
    expect(body(await get(env, USER_INFO, token)).code).toBe(1000);
    // Activity resets the idle clock.
    env.clock.advance(29 * 60_000);
    expect(body(await get(env, USER_INFO, token)).code).toBe(1000);
    env.clock.advance(30 * 60_000 + 1);
    expect(body(await get(env, USER_INFO, token))).toMatchObject({ code: 1010, msg: 'Error Token,Please login again.' });
    const row = await env.db.kysely.selectFrom('sessions').select('end_reason').executeTakeFirstOrThrow();
    expect(row.end_reason).toBe('idle');
  });

  it('expires an active session 12 hours after sign-in', async () => {
    const token = await login(env, 'alice');
    for (let hour = 0; hour < 12 * 3; hour++) {
      env.clock.advance(20 * 60_000);
      const res = body(await get(env, USER_INFO, token));
      if (hour < 12 * 3 - 1) expect(res.code).toBe(1000);
      else expect(res.code).toBe(1010);
    }
    const row = await env.db.kysely.selectFrom('sessions').select('end_reason').executeTakeFirstOrThrow();
    expect(row.end_reason).toBe('expired');
  });

  it('throttles an account from one address after 5 failures, even for the right password (hardening.test.ts has the rest)', async () => {
    for (let i = 0; i < 4; i++) {
      expect(body(await loginRequest(env, 'alice', 'wrong-one')).code).toBe(1001);
      env.clock.advance(10_000);
    }
    const fifth = await loginRequest(env, 'alice', 'wrong-one');
    expect(fifth.statusCode).toBe(429);
    expect(body(fifth).code).toBe(1003);
    const right = await loginRequest(env, 'alice', PASSWORD);
    expect(body(right).code).toBe(1003);
    expect(body(right).msg).toMatch(/Try again in \d+ seconds/);
    expect(body(await loginRequest(env, 'alice', PASSWORD, 'zh')).msg).toMatch(/请 \d+ 秒后再试/);
    // Other accounts are not affected.
    expect(body(await loginRequest(env, 'root', PASSWORD)).code).toBe(1000);
    // Once the lock (30 s after the fifth failure) is over, the right password works again.
    env.clock.advance(5 * 60_000 - 40_000 + 1);
    expect(body(await loginRequest(env, 'alice', PASSWORD)).code).toBe(1000);
    // ... and a success clears the count.
    expect(body(await loginRequest(env, 'alice', 'wrong-one')).code).toBe(1001);
  });

  it('counts failures per account whatever the letter case', async () => {
    for (let i = 0; i < 5; i++) await loginRequest(env, i % 2 ? 'ALICE' : 'alice', 'wrong-one');
    expect(body(await loginRequest(env, 'Alice', PASSWORD)).code).toBe(1003);
  });
});
