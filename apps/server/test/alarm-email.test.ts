import type { AddressInfo } from 'node:net';
import type { AlarmEmailSetting } from '@ipp/contracts';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { hangingReceiver } from './helpers/receivers.ts';
import type { Config } from '../src/config.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

const decodeQp = (text: string) =>
  Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The subject and text of a single-part message as nodemailer writes it (encoded words, quoted-printable or base64). */
function readMail(raw: string) {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const headers = head.replace(/\r\n[ \t]+/g, ' ');
  const subject = (/^Subject: (.*)$/m.exec(headers)?.[1] ?? '').replace(
    /=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi,
    (_m, kind: string, word: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(word, 'base64').toString('utf8') : decodeQp(word.replace(/_/g, ' ')),
  );
  const encoding = /^Content-Transfer-Encoding: (.*)$/im.exec(headers)?.[1]?.trim().toLowerCase();
  const body = rest.join('\r\n\r\n');
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQp(body)
        : body;
  return { subject: subject.trim(), text };
}

/** A real SMTP server on this machine (the smtp-server package), refusing the first `refuse` messages with 451. */
async function smtpServer(refuse = 0) {
  const mails: Mail[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      stream.on('end', () => {
        if (refused < refuse) {
          refused++;
          const error = new Error('try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), ...readMail(text) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('alarm e-mail without SMTP', () => {
  it('refuses a test message in the caller’s language: this server sends no e-mail', async () => {
    const env = await buildTestApp('sqlite');
    try {
      const w = await buildWorld(env);
      const answer = body(await call(env, w.tokens.user, 'POST', '/api/alarm/test-email', undefined, 'zh'));
      expect(answer).toMatchObject({ code: 1001, msg: '本服务器未配置 SMTP，无法发送邮件' });
    } finally {
      await env.close();
    }
  });
});

/** Issue 23, e-mail notifications: SMTP delivery to a local server, per-user choice of what to receive, retries. */
describe.each(dialects)('alarm e-mail on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  const start = async (refuse = 0, config: Partial<Config> = {}) => {
    smtp = await smtpServer(refuse);
    env = await buildTestApp(dialect, { config: { SMTP_URL: smtp.url, WEBHOOK_POLL_MS: 600_000, ...config } });
    w = await buildWorld(env);
  };
  afterEach(async () => {
    await env?.close();
    await smtp?.close();
  });

  const choose = async (token: string | undefined, alarm_email: string, lang = 'en') =>
    body(await call(env, token, 'POST', '/api/alarm/save-my-email', { alarm_email }, lang));
  const setEmail = (account: string, email: string) =>
    env.db.kysely.updateTable('users').set({ email }).where('account', '=', account).execute();
  const deliveries = () =>
    env.db.kysely.selectFrom('alarm_deliveries').selectAll().where('channel', '=', 'email').orderBy('id').execute();
  const raise = async (devId: string, followers: (string | undefined)[] = []) => {
    const ipp = await registerIpp(env, w.tokens.ownAdmin, w.teamA, devId);
    for (const token of followers)
      expect(
        body(await call(env, token, 'POST', '/api/setting/save-user', { view: { group_id: w.teamA, ids: [ipp.id] } })).code,
      ).toBe(1000);
    expect((await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    return ipp;
  };

  it('sends a test message to the caller now, in their language, once when pressed twice at once (issue 40)', async () => {
    await start();
    await setEmail('user_a', 'user@example.org');
    await env.db.kysely.updateTable('users').set({ language: 'zh' }).where('account', '=', 'user_a').execute();
    const answers = await Promise.all(
      [1, 2].map(async () => body(await call(env, w.tokens.user, 'POST', '/api/alarm/test-email', undefined))),
    );
    expect(answers.map((a) => a.data)).toEqual([
      { ok: true, error: null },
      { ok: true, error: null },
    ]);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ to: ['user@example.org'], subject: '[IPP 告警] 测试邮件' });
    // No address: refused in the caller's language, nothing sent.
    const none = body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/test-email', undefined, 'en'));
    expect(none).toMatchObject({ code: 1001, msg: 'Your account has no e-mail address' });
    expect(smtp.mails).toHaveLength(1);
  });

  it('says the test failed when the SMTP server refuses it', async () => {
    await start(5);
    await setEmail('user_a', 'user@example.org');
    const answer = body(await call(env, w.tokens.user, 'POST', '/api/alarm/test-email', undefined));
    expect(answer.data).toEqual({ ok: false, error: 'send failed' });
  });

  it("a team's webhook that never answers holds up none of the e-mails (issue 37)", async () => {
    await start(0, { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
    const hang = await hangingReceiver();
    try {
      expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-webhook', { url: hang.url })).code).toBe(1000);
      await setEmail('admin_a', 'admin@example.org');
      expect((await choose(w.tokens.ownAdmin, 'team')).code).toBe(1000);
      for (let i = 1; i <= 12; i++) {
        const rule = { name: `Hot ${i}`, kind: 'temperature_high', threshold: 40 };
        expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', rule)).code).toBe(1000);
      }
      await env.app.alarms.settled();
      const started = Date.now();
      // 12 alarms: 12 posts to the receiver that never answers and 12 e-mails, queued in turn.
      await raise('A1');
      await expect.poll(() => smtp.mails.length, { timeout: 3000, interval: 20 }).toBe(12);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(hang.requests()).toBe(1);
    } finally {
      await hang.close();
    }
  });

  it('e-mails each member who chose it, in their language: the team’s alarms, or only the followed stations’', async () => {
    await start();
    await setEmail('admin_a', 'admin@example.org');
    await setEmail('user_a', 'user@example.org');
    await setEmail('admin_b', 'other@example.org');
    const quiet = await createUser(env, 'quiet_a', 'user', { groupId: w.teamA });
    expect(quiet).toBeGreaterThan(0);
    await setEmail('quiet_a', 'quiet@example.org');
    expect(await choose(w.tokens.ownAdmin, 'team')).toMatchObject({
      code: 1000,
      data: { alarm_email: 'team', email: 'admin@example.org', available: true },
    });
    expect((await choose(w.tokens.user, 'followed')).code).toBe(1000);
    expect((await choose(w.tokens.otherAdmin, 'team')).code).toBe(1000);
    // The administrator reads English; the user keeps the site's default, Chinese.
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/setting/save-user', { language: 'en' })).code).toBe(1000);
    expect(
      body(
        await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', {
          name: 'Hot',
          kind: 'temperature_high',
          threshold: 40,
        }),
      ).code,
    ).toBe(1000);

    // A1 is followed by nobody: only the administrator, who chose the whole team.
    await raise('A1');
    await expect.poll(async () => smtp.mails.length).toBe(1);
    expect(smtp.mails[0]!.to).toEqual(['admin@example.org']);
    expect(smtp.mails[0]!.subject).toBe('[IPP alarm · major] Site A1 (A1): internal temperature above 40 °C');
    expect(smtp.mails[0]!.text).toContain('Rule: Hot (internal temperature above 40 °C)');
    expect(smtp.mails[0]!.text).toContain('Reading: 45');

    // A2 is followed by the user: both.
    await raise('A2', [w.tokens.user]);
    await expect.poll(async () => smtp.mails.length).toBe(3);
    expect(
      smtp.mails
        .slice(1)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(['admin@example.org', 'user@example.org']);
    // The user reads Chinese (the site default).
    const toUser = smtp.mails.find((m) => m.to.includes('user@example.org'))!;
    expect(toUser.subject).toBe('[IPP 告警 · 重要] Site A2 (A2)：舱内温度高于 40 °C');
    expect(toUser.text).toContain('站点：Site A2 (A2)');
    await expect.poll(async () => (await deliveries()).every((d) => d.delivered_at !== null)).toBe(true);
    // Nobody of team B, nobody who chose nothing.
    expect(smtp.mails.flatMap((m) => m.to)).not.toContain('other@example.org');
    expect(smtp.mails.flatMap((m) => m.to)).not.toContain('quiet@example.org');
  });

  it('retries a message the SMTP server refuses, then delivers it', async () => {
    await start(2);
    await setEmail('admin_a', 'admin@example.org');
    await choose(w.tokens.ownAdmin, 'team');
    await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', { name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await raise('A1');
    await expect.poll(async () => (await deliveries())[0]?.attempts).toBe(1);
    expect((await deliveries())[0]!.last_error).toMatch(/451/);
    env.clock.advance(10_000);
    await env.app.alarmOutbox.deliverDue();
    env.clock.advance(20_000);
    await env.app.alarmOutbox.deliverDue();
    expect(smtp.mails).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ attempts: 3, last_error: null });
  });

  it('refuses an unknown choice in the user language, and says when the server sends no e-mail', async () => {
    await start();
    const bad = await choose(w.tokens.user, 'sometimes', 'zh');
    expect(bad.code).toBe(1002);
    expect(bad.msg).toContain('alarm_email');
    expect((await choose(undefined, 'team')).code).toBe(1010);
    await env.close();
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    const setting = body(await call(env, await login(env, 'user_a'), 'GET', '/api/alarm/my-email')).data as AlarmEmailSetting;
    expect(setting).toEqual({ alarm_email: 'off', email: expect.any(String), available: false });
  });
});

describe('alarm e-mail text', () => {
  it("names a biology alarm's class, limit and window in the recipient's language", async () => {
    const { alarmMail } = await import('../src/modules/alarms/alarm-email.ts');
    const alarm = {
      id: 1,
      group_id: 1,
      rule_id: 1,
      rule_name: 'Bloom',
      kind: 'class_concentration' as const,
      severity: 'major' as const,
      threshold: 20,
      minutes: 180,
      class_id: 3,
      class_name: '003 Dinoflagellate',
      ipp_id: 1,
      dev_id: 'A1',
      site_name: 'Bay',
      time_zone: 'UTC',
      state: 'active' as const,
      value: 26.4,
      raised_at: Date.UTC(2026, 10, 27, 3, 0),
      last_seen_at: Date.UTC(2026, 10, 27, 3, 0),
      acknowledged_at: null,
      acknowledged_by_name: null,
      ack_note: null,
      cleared_at: null,
      cleared_by_name: null,
      clear_reason: null,
      silenced: false,
    };
    expect(alarmMail(alarm, 'raised', 'en').subject).toBe(
      '[IPP alarm · major] Bay (A1): 003 Dinoflagellate above 20 ind/L over 3 h',
    );
    expect(alarmMail(alarm, 'raised', 'zh').subject).toBe(
      '[IPP 告警 · 重要] Bay (A1)：003 Dinoflagellate 浓度在 3 小时内高于 20 个/L',
    );
    expect(alarmMail({ ...alarm, state: 'cleared' }, 'cleared', 'en').subject).toMatch(/ \(cleared\)$/);
    expect(alarmMail({ ...alarm, state: 'cleared' }, 'cleared', 'zh').subject).toMatch(/（已解除）$/);
    expect(alarmMail(alarm, 'again', 'en').text).toContain('26.4');
  });
});
