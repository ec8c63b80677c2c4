import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig, type Config } from '../src/config.ts';
import { csvCell } from '@ipp/contracts/csv';
import { redactUrl } from '../src/http/transport.ts';
import { hashingStats, hashPassword } from '../src/security/password.ts';
import { insertUser } from '../src/modules/users/users.repository.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, createTeam, createUser, PASSWORD, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { upload } from './helpers/upload.ts';
import type { FastifyInstance } from 'fastify';

const LOGIN = '/api/wyrbac/login/login';
const CHANGE = '/api/account/change-pass-wd';

/** A sign-in from a given client address (the test peer is loopback, a trusted proxy, so X-Forwarded-For counts). */
const signIn = (env: TestEnv, username: string, password: string, from: string, lang = 'en') =>
  env.app.inject({
    method: 'POST',
    url: LOGIN,
    headers: { 'x-lang': lang, 'x-forwarded-for': from },
    payload: { username, password },
  });

describe.each(dialects)('server hardening on %s (issue 20)', (dialect) => {
  let env: TestEnv;
  afterEach(async () => {
    // Each test builds its own; one that failed before building must not close the last one twice.
    const built = env as TestEnv | undefined;
    env = undefined as never;
    await built?.close();
  });

  /** The test app with extra routes: one that never answers, one that answers when told, one that streams slowly. */
  async function appWithProbes(config: Partial<Config> = {}) {
    const gates: (() => void)[] = [];
    env = await buildTestApp(dialect, {
      config,
      beforeReady: (app: FastifyInstance) => {
        app.get('/api/test/stuck', { config: { access: 'public' } }, () => new Promise(() => undefined));
        app.get('/api/test/slow-long', { config: { access: 'public', deadline: 'long' } }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          return { code: 1000, data: 'late but allowed' };
        });
        app.get('/api/test/stream', { config: { access: 'public' } }, (_request, reply) => {
          let sent = 0;
          const stream = new Readable({
            read() {
              if (sent === 4) return this.push(null);
              setTimeout(() => this.push(`chunk${sent++};`), 150);
            },
          });
          return reply.type('text/csv').send(stream);
        });
        app.get('/api/test/expensive', { config: { access: 'signed-in', expensive: true } }, async () => {
          await new Promise<void>((resolve) => gates.push(resolve));
          return { code: 1000, data: 'done' };
        });
      },
    });
    return { release: () => gates.splice(0).forEach((open) => open()), waiting: () => gates.length };
  }

  it('answers a handler that never finishes with a 503 envelope after the deadline, and keeps serving', async () => {
    await appWithProbes({ REQUEST_DEADLINE_MS: 200, LONG_REQUEST_DEADLINE_MS: 5000 });
    const started = Date.now();
    const stuck = await env.app.inject({ method: 'GET', url: '/api/test/stuck', headers: { 'x-lang': 'en' } });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(stuck.statusCode).toBe(503);
    const failure = body(stuck);
    expect(failure.code).toBe(1500);
    expect(failure.msg).toMatch(/did not finish this request within 1 seconds; try again later \(request [0-9a-f-]{36}\)/);
    expect(failure.model?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const zh = body(await env.app.inject({ method: 'GET', url: '/api/test/stuck' }));
    expect(zh.msg).toMatch(/服务器未能在 1 秒内完成此请求/);
    // A route marked long may take longer than the normal deadline; an answer already streaming is never cut.
    expect(body(await env.app.inject({ method: 'GET', url: '/api/test/slow-long' })).data).toBe('late but allowed');
    const stream = await env.app.inject({ method: 'GET', url: '/api/test/stream' });
    expect(stream.statusCode).toBe(200);
    expect(stream.body).toBe('chunk0;chunk1;chunk2;chunk3;');
    // The server still answers other calls.
    expect(body(await signIn(env, 'nobody', 'not-this-one', '10.0.0.1')).code).toBe(1001);
  });

  it('bounds expensive calls per user: the third of one user is refused at once, another user is unaffected', async () => {
    const probes = await appWithProbes({ EXPENSIVE_PER_USER: 2 });
    const team = await createTeam(env, 'T');
    await createUser(env, 'heavy', 'user', { groupId: team });
    await createUser(env, 'light', 'user', { groupId: team });
    const token = async (account: string) =>
      (body(await signIn(env, account, PASSWORD, '10.0.0.2')).data as { token: string }).token;
    const heavy = await token('heavy');
    const light = await token('light');
    const expensive = (t: string) =>
      env.app.inject({ method: 'GET', url: '/api/test/expensive', headers: { 'x-token': t, 'x-lang': 'en' } });
    const first = [expensive(heavy), expensive(heavy)];
    await until(() => probes.waiting() === 2);
    const third = await expensive(heavy);
    expect(third.statusCode).toBe(429);
    expect(body(third)).toMatchObject({ code: 1003 });
    expect(body(third).msg).toMatch(/You already have 2 long-running requests in progress/);
    // The other user's call runs beside them.
    const other = expensive(light);
    await until(() => probes.waiting() === 3);
    probes.release();
    for (const res of await Promise.all([...first, other])) expect(body(res).data).toBe('done');
    // Once they are answered, the first user may call again.
    const again = expensive(heavy);
    await until(() => probes.waiting() === 1);
    probes.release();
    expect(body(await again).data).toBe('done');
  });

  it('keeps a sign-in flood off the file I/O threads: hashes run two at a time, the excess is refused at once', async () => {
    env = await buildTestApp(dialect, { config: { SCRYPT_LOG_N: 15, SCRYPT_CONCURRENCY: 2, SCRYPT_QUEUE: 4 } });
    const file = path.join(env.config.DATA_DIR, 'image.bin');
    fs.writeFileSync(file, Buffer.alloc(256 * 1024, 7));
    // Forty accounts that exist (unknown ones cost no hash since issue 37), one hash made for all of them.
    const passwordHash = await hashPassword(PASSWORD, 15);
    for (let i = 0; i < 40; i++) {
      await insertUser(env.db.kysely, {
        ...{ account: `known${i}`, name: `Known ${i}`, password_hash: passwordHash, phone: '', email: '', avatar: '' },
        ...{ group_id: null, role: 'superadmin', is_demo: 0, created_at: 0, updated_at: 0 },
      });
    }
    hashingStats.maxRunning = 0;
    hashingStats.refused = 0;
    let hashedAnswers = 0;
    const flood = Array.from({ length: 40 }, (_, i) =>
      // Wrong passwords for many accounts from many addresses, as in the attack: no per-address limit applies.
      signIn(env, `known${i}`, 'guess-pass', `10.1.${i >> 8}.${i & 255}`).then((res) => {
        if (body(res).code === 1001) hashedAnswers++;
        return res;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = hashedAnswers;
    const image = await fs.promises.readFile(file);
    const duringRead = hashedAnswers - before;
    const answers = await Promise.all(flood);
    expect(image.length).toBe(256 * 1024);
    // The read did not wait behind the queued hashes: only the two running ones (and at most the next two, on a busy
    // machine) finished meanwhile. Without the limit, 37 of 40 finished first.
    expect(duringRead).toBeLessThanOrEqual(4);
    expect(hashingStats.maxRunning).toBe(2);
    const busy = answers.filter((res) => body(res).code === 1003);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length).toBe(hashingStats.refused);
    for (const res of busy) {
      expect(res.statusCode).toBe(429);
      expect(body(res).msg).toBe('The server is busy. Try again in 5 seconds');
    }
    expect(answers.every((res) => [1001, 1003].includes(body(res).code))).toBe(true);
  });

  describe('sign-in throttling', () => {
    it('locks an account only for the address that failed: the owner elsewhere still signs in', async () => {
      env = await buildTestApp(dialect);
      await createUser(env, 'root', 'superadmin');
      for (let i = 0; i < 4; i++) expect(body(await signIn(env, 'root', 'wrong-pass', '203.0.113.9')).code).toBe(1001);
      const fifth = await signIn(env, 'root', 'wrong-pass', '203.0.113.9');
      expect(fifth.statusCode).toBe(429);
      expect(body(fifth).msg).toBe('Too many failed sign-in attempts. Try again in 30 seconds');
      // The attacker's address is refused even with the right password ...
      expect(body(await signIn(env, 'root', PASSWORD, '203.0.113.9')).code).toBe(1003);
      // ... but the superadmin at another address is not locked out.
      expect(body(await signIn(env, 'root', PASSWORD, '198.51.100.7')).code).toBe(1000);
    });

    it('makes the delays grow with every further failure from the same address', async () => {
      env = await buildTestApp(dialect);
      await createUser(env, 'alice', 'user', { groupId: await createTeam(env, 'T') });
      const from = '203.0.113.10';
      for (let i = 0; i < 5; i++) await signIn(env, 'alice', 'wrong-pass', from);
      const waits: number[] = [];
      for (let i = 0; i < 6; i++) {
        const refused = body(await signIn(env, 'alice', 'wrong-pass', from));
        expect(refused.code).toBe(1003);
        const seconds = Number(/in (\d+) seconds/.exec(refused.msg ?? '')?.[1]);
        waits.push(seconds);
        env.clock.advance(seconds * 1000);
        // The lock is over: the next failure is counted and locks for twice as long (at most 15 minutes).
        expect(body(await signIn(env, 'alice', 'wrong-pass', from)).code).toBe(1003);
      }
      expect(waits).toEqual([30, 60, 120, 240, 480, 900]);
      // A right password once the lock is over clears the count.
      env.clock.advance(900_000);
      expect(body(await signIn(env, 'alice', PASSWORD, from)).code).toBe(1000);
      expect(body(await signIn(env, 'alice', 'wrong-pass', from)).code).toBe(1001);
    });

    it('slows one address that sprays many accounts, without slowing other addresses', async () => {
      env = await buildTestApp(dialect);
      await createUser(env, 'bob', 'user', { groupId: await createTeam(env, 'T') });
      const from = '203.0.113.11';
      for (let i = 0; i < 19; i++) expect(body(await signIn(env, `acct${i}`, 'wrong-pass', from)).code).toBe(1001);
      const twentieth = await signIn(env, 'acct19', 'wrong-pass', from);
      expect(body(twentieth).code).toBe(1003);
      expect(body(twentieth).msg).toBe('Too many failed sign-in attempts. Try again in 900 seconds');
      expect(body(await signIn(env, 'bob', PASSWORD, from)).code).toBe(1003);
      expect(body(await signIn(env, 'bob', PASSWORD, '198.51.100.8')).code).toBe(1000);
      env.clock.advance(15 * 60_000);
      expect(body(await signIn(env, 'bob', PASSWORD, from)).code).toBe(1000);
    });

    it('throttles the current-password check of change-pass-wd the same way', async () => {
      env = await buildTestApp(dialect);
      await createUser(env, 'carol', 'user', { groupId: await createTeam(env, 'T') });
      const token = (body(await signIn(env, 'carol', PASSWORD, '198.51.100.9')).data as { token: string }).token;
      const change = (password: string, from: string, lang = 'en') =>
        env.app.inject({
          method: 'POST',
          url: CHANGE,
          headers: { 'x-token': token, 'x-lang': lang, 'x-forwarded-for': from },
          payload: { password, newpassword: 'brand-new-pass' },
        });
      const from = '203.0.113.12';
      for (let i = 0; i < 4; i++) expect(body(await change(`guess${i}`, from)).code).toBe(1001);
      const fifth = await change('guess4', from);
      expect(fifth.statusCode).toBe(429);
      expect(body(fifth).msg).toBe('Too many wrong current passwords. Try again in 30 seconds');
      expect(body(await change(PASSWORD, from, 'zh')).msg).toBe('当前密码错误次数过多，请 30 秒后再试');
      // Twenty guesses are not possible: the right one is still refused while locked.
      for (let i = 0; i < 15; i++) expect(body(await change(`guess-more${i}`, from)).code).toBe(1003);
      expect(body(await change(PASSWORD, from)).code).toBe(1003);
      env.clock.advance(30_000);
      expect(body(await change(PASSWORD, from)).code).toBe(1000);
    });
  });

  it('says an account name or site ID is taken without naming anything of the team that holds it', async () => {
    env = await buildTestApp(dialect);
    const w: World = await buildWorld(env);
    await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B-77', { site_name: 'Secret pier of team B' });
    const user = (account: string, lang = 'en') =>
      call(
        env,
        w.tokens.ownAdmin,
        'POST',
        '/api/user/save',
        {
          account,
          name: 'N',
          password: 'pass-1234',
          role: 'user',
          group_id: w.teamA,
          phone: '+86 123 4567',
          email: 'n@example.com',
        },
        lang,
      );
    const foreign = body(await user('admin_b'));
    const own = body(await user('user_a'));
    expect(foreign).toMatchObject({ code: 1002, msg: 'This account name is taken; choose another', model: { field: 'account' } });
    expect(own.msg).toBe(foreign.msg);
    expect(body(await user('admin_b', 'zh')).msg).toBe('该账号名已被使用，请换一个');
    const ipp = body(
      await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/save', {
        dev_id: 'B-77',
        site_name: 'Mine',
        country: 'CN',
        longitude: null,
        latitude: null,
        group_id: w.teamA,
        serial_number: '',
        config: DEFAULT_IPP_CONFIG,
      }),
    );
    expect(ipp).toMatchObject({ code: 1002, msg: 'This site ID is taken; choose another', model: { field: 'dev_id' } });
    expect(JSON.stringify(ipp)).not.toMatch(/Secret pier|Team B|admin_b/);
  });

  it('writes station names that look like formulas as text in the CSV export', async () => {
    env = await buildTestApp(dialect);
    const w = await buildWorld(env);
    const evil = "-1+cmd|' /C calc'!A0";
    const a = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { site_name: evil, latitude: -33.5, longitude: -70.25 });
    const roi = body(
      await uploadRoi(env, a.key, { captured_at: Date.UTC(2026, 10, 22, 7), label_index: 1, size_px: 500 }, await pngOf(3)),
    );
    expect(roi.code, JSON.stringify(roi)).toBe(1000);
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/roi/export',
      headers: { 'x-token': w.tokens.user ?? '' },
      payload: { format: 'csv', roi_ids: [(roi.data as { roi_id: number }).roi_id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row =
      res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n')[1] ?? '';
    expect(row.split(',')[2]).toBe(`'${evil}`);
    // Plain numbers stay numbers (a negative latitude is not a formula).
    expect(row).toContain(',-33.5,-70.25,');
  });

  it('refuses a translation file holding NUL with 1002, storing nothing', async () => {
    env = await buildTestApp(dialect);
    const w = await buildWorld(env);
    for (const [file, name] of [
      [Buffer.from(JSON.stringify({ zh: { 'a.key': 'x\u0000y' } })), 't.json'],
      [Buffer.from('key,zh,en\na.key,ok,bad\u0000text\n'), 't.csv'],
      [Buffer.from(JSON.stringify({ 'a.k\u0000ey': { zh: 'x' } })), 't.json'],
    ] as const) {
      const res = await upload(env, w.tokens.superadmin, '/api/upload/index?action=language', file, name);
      expect(res.statusCode).toBe(400);
      expect(body(res)).toMatchObject({ code: 1002, model: { field: 'file' } });
      expect(body(res).msg).toMatch(/^Malformed file: .*holds the NUL character$/);
    }
    const stored = body(await call(env, w.tokens.superadmin, 'GET', '/api/get-lang/lang?language=zh'));
    expect(stored.data).toEqual([]);
  });

  it('sets Referrer-Policy, nosniff and frame options on API answers', async () => {
    env = await buildTestApp(dialect);
    for (const res of [
      await signIn(env, 'x', 'not-this-one', '10.0.0.3'),
      await env.app.inject({ method: 'GET', url: '/api/nope' }),
    ]) {
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });
});

describe('request log', () => {
  it('never shows a sign-in link token', async () => {
    const lines: string[] = [];
    const dir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'ipp-log-'));
    const { openDatabase } = await import('../src/db/database.ts');
    const { migrateToLatest } = await import('../src/db/migrate.ts');
    const db = openDatabase({ dataDir: dir, sqliteFile: ':memory:' });
    await migrateToLatest(db);
    const app = await buildApp({
      config: testConfig({ LOG_LEVEL: 'info', DATA_DIR: dir }),
      db,
      logStream: { write: (line: string) => void lines.push(line) },
    });
    try {
      await app.inject({ method: 'GET', url: '/ipp/ipp-view?id=5&token=SECRET-LINK-TOKEN' });
      await app.inject({ method: 'GET', url: '/api/wyrbac/login/user-info?x=1&token=SECRET-LINK-TOKEN&lang=en' });
      const log = lines.join('');
      expect(log).toContain('/ipp/ipp-view?id=5&token=[redacted]');
      expect(log).toContain('?x=1&token=[redacted]&lang=en');
      expect(log).not.toContain('SECRET-LINK-TOKEN');
    } finally {
      await app.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('redacts every token-like query parameter', () => {
    expect(redactUrl('/a?token=t&id=1&access_token=u&device_key=k&q=token')).toBe(
      '/a?token=[redacted]&id=1&access_token=[redacted]&device_key=[redacted]&q=token',
    );
    expect(redactUrl('/a')).toBe('/a');
  });
});

describe('CSV cells', () => {
  it('neutralise = + - @ TAB and CR at the start, leaving plain numbers', () => {
    expect(['=1+1', '+1+1', '-1+cmd', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual([
      "'=1+1",
      "'+1+1",
      "'-1+cmd",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
    ]);
    expect([-1.5, '-2', '+3e5', 'plain', 'a,b', null].map(csvCell)).toEqual(['-1.5', '-2', '+3e5', 'plain', '"a,b"', '']);
  });
});

async function until(condition: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
