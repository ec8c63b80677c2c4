import type { Alarm, AlarmEmailSetting } from '@ipp/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { hangingReceiver } from './helpers/receivers.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { dialects } from './helpers/dialects.ts';
import { smtpServer } from './helpers/smtp.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

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
    expect(smtp.mails[0]!.text).toContain('Reading: 45 °C');
    // The station's clock is its longitude's nautical zone (121.5° E: UTC+8), beside UTC.
    expect(smtp.mails[0]!.text).toContain('Raised: 2026-11-22 16:00 (Etc/GMT-8, UTC+8) · 2026-11-22 08:00 UTC');
    // Without PUBLIC_URL the console's address is unknown: no link, the page named instead.
    expect(smtp.mails[0]!.text).toContain('Acknowledge or read it on the Alarms page of the console.');
    expect(smtp.mails[0]!.text).not.toMatch(/https?:/);

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
    expect(toUser.text).toContain('读数：45 °C');
    expect(toUser.text).toContain('发生时间：2026-11-22 16:00 (Etc/GMT-8, UTC+8) · 2026-11-22 08:00 UTC');
    expect(toUser.text).not.toMatch(/https?:/);
    await expect.poll(async () => (await deliveries()).every((d) => d.delivered_at !== null)).toBe(true);
    // Nobody of team B, nobody who chose nothing.
    expect(smtp.mails.flatMap((m) => m.to)).not.toContain('other@example.org');
    expect(smtp.mails.flatMap((m) => m.to)).not.toContain('quiet@example.org');
  });

  it("links each e-mail to its alarm on PUBLIC_URL, with the station's local time and the reading's unit (issue 40)", async () => {
    await start(0, { PUBLIC_URL: 'https://ipp.example.org/' });
    await setEmail('admin_a', 'admin@example.org');
    await setEmail('user_a', 'user@example.org');
    expect((await choose(w.tokens.ownAdmin, 'team')).code).toBe(1000);
    expect((await choose(w.tokens.user, 'team')).code).toBe(1000);
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/setting/save-user', { language: 'en' })).code).toBe(1000);
    const rule = { name: 'Hot', kind: 'temperature_high', threshold: 40 };
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', rule)).code).toBe(1000);
    const ipp = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { time_zone: 'Asia/Shanghai' });
    expect((await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 45.25 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    await expect.poll(async () => smtp.mails.length).toBe(2);
    const alarm = await env.db.kysely.selectFrom('alarms').select('id').executeTakeFirstOrThrow();
    const en = smtp.mails.find((m) => m.to.includes('admin@example.org'))!;
    const zh = smtp.mails.find((m) => m.to.includes('user@example.org'))!;
    expect(en.text).toContain('Reading: 45.3 °C');
    expect(en.text).toContain('Raised: 2026-11-22 16:00 (Asia/Shanghai, UTC+8) · 2026-11-22 08:00 UTC');
    expect(en.text).toContain(`Acknowledge or read it in the console: https://ipp.example.org/alarms?alarm=${alarm.id}`);
    expect(zh.text).toContain('读数：45.3 °C');
    expect(zh.text).toContain('发生时间：2026-11-22 16:00 (Asia/Shanghai, UTC+8) · 2026-11-22 08:00 UTC');
    expect(zh.text).toContain(`在控制台中确认或查看：https://ipp.example.org/alarms?alarm=${alarm.id}`);

    // The test message points at the Alarms page; the link never comes from the request's Host header.
    const test = await env.app.inject({
      method: 'POST',
      url: '/api/alarm/test-email',
      headers: { 'x-token': w.tokens.user!, host: 'evil.example.com', 'x-forwarded-host': 'evil.example.com' },
    });
    expect(body(test).data).toEqual({ ok: true, error: null });
    expect(smtp.mails.at(-1)!.text).toContain('控制台的“告警”页面：https://ipp.example.org/alarms');

    // Cleared: the clearing time too, on both clocks, and the same link.
    env.clock.advance(90 * 60_000);
    expect((await telemetry(env, ipp.key, { at: env.clock.now, temperature_c: 30 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    await expect.poll(async () => smtp.mails.length).toBe(5);
    const cleared = smtp.mails.slice(3).find((m) => m.to.includes('admin@example.org'))!;
    expect(cleared.subject).toMatch(/ \(cleared\)$/);
    expect(cleared.text).toContain('Cleared: 2026-11-22 17:30 (Asia/Shanghai, UTC+8) · 2026-11-22 09:30 UTC');
    expect(cleared.text).toContain(`https://ipp.example.org/alarms?alarm=${alarm.id}`);
    expect(smtp.mails.map((m) => m.text).join('\n')).not.toContain('evil.example.com');
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
    const alarm: Alarm = {
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
      series: null,
      comparison: null,
      threshold_low: null,
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
      escalated_at: null,
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
    expect(alarmMail(alarm, 'again', 'en').text).toContain('Reading: 26.4 ind/L');
    expect(alarmMail(alarm, 'again', 'zh').text).toContain('读数：26.4 个/L');
  });

  it('names a series rule’s series, comparison and limits with the series’ unit (issue 40, item 3)', async () => {
    const { alarmMail } = await import('../src/modules/alarms/alarm-email.ts');
    const series = (comparison: Alarm['comparison'], over: Partial<Alarm> = {}): Alarm => ({
      ...base,
      kind: 'series',
      rule_name: 'Board',
      series: 'lp_temperature_c',
      comparison,
      threshold: 45,
      threshold_low: null,
      minutes: null,
      value: 47.25,
      ...over,
    });
    expect(alarmMail(series('above'), 'raised', 'en').subject).toBe(
      '[IPP alarm · major] Daya Bay intake (21001): Low-power board temperature above 45 °C',
    );
    expect(alarmMail(series('below'), 'raised', 'zh').subject).toBe(
      '[IPP 告警 · 重要] Daya Bay intake (21001)：低功耗板温度低于 45 °C',
    );
    expect(alarmMail(series('outside', { threshold_low: 5 }), 'raised', 'en').subject).toContain(
      'Low-power board temperature outside 5–45 °C',
    );
    const rate = alarmMail(series('rate', { threshold: 5, minutes: 10, value: -6 }), 'raised', 'en');
    expect(rate.subject).toContain('Low-power board temperature changed by more than 5 °C within 10 min');
    expect(rate.text).toContain('Reading: -6 °C');
    // A count has no unit to write.
    const count = alarmMail(series('above', { series: 'wiper_clean_count', threshold: 1000, value: 1200 }), 'raised', 'en');
    expect(count.subject).toContain('Total clean count above 1000');
    expect(count.text).toContain('Reading: 1200\n');
  });

  const base: Alarm = {
    id: 412,
    group_id: 3,
    rule_id: 17,
    rule_name: 'Quiet',
    kind: 'offline',
    severity: 'major',
    threshold: null,
    minutes: 60,
    class_id: null,
    class_name: null,
    series: null,
    comparison: null,
    threshold_low: null,
    ipp_id: 9,
    dev_id: '21001',
    site_name: 'Daya Bay intake',
    time_zone: 'Asia/Shanghai',
    state: 'active',
    value: 28 * 1440 + 14 * 60 + 20,
    raised_at: Date.UTC(2026, 10, 27, 3, 0),
    last_seen_at: Date.UTC(2026, 10, 27, 3, 0),
    acknowledged_at: null,
    acknowledged_by_name: null,
    ack_note: null,
    cleared_at: null,
    cleared_by_name: null,
    clear_reason: null,
    escalated_at: null,
    silenced: false,
  };

  it("gives the time on the station's clock and in UTC, in both languages", async () => {
    const { alarmMail } = await import('../src/modules/alarms/alarm-email.ts');
    expect(alarmMail(base, 'raised', 'en').text).toContain(
      'Raised: 2026-11-27 11:00 (Asia/Shanghai, UTC+8) · 2026-11-27 03:00 UTC',
    );
    expect(alarmMail(base, 'raised', 'zh').text).toContain(
      '发生时间：2026-11-27 11:00 (Asia/Shanghai, UTC+8) · 2026-11-27 03:00 UTC',
    );
    // West of UTC the station's day is the day before; a nautical zone says its offset the right way round.
    expect(alarmMail({ ...base, time_zone: 'Etc/GMT+5' }, 'raised', 'en').text).toContain(
      'Raised: 2026-11-26 22:00 (Etc/GMT+5, UTC-5) · 2026-11-27 03:00 UTC',
    );
    // Daylight saving: New York is UTC-4 in July, UTC-5 in November.
    expect(
      alarmMail({ ...base, time_zone: 'America/New_York', raised_at: Date.UTC(2026, 6, 1, 12, 0) }, 'raised', 'en').text,
    ).toContain('Raised: 2026-07-01 08:00 (America/New_York, UTC-4) · 2026-07-01 12:00 UTC');
    expect(alarmMail({ ...base, time_zone: 'Asia/Kolkata' }, 'raised', 'en').text).toContain(
      'Raised: 2026-11-27 08:30 (Asia/Kolkata, UTC+5:30) · 2026-11-27 03:00 UTC',
    );
    // A station on UTC: one time.
    expect(alarmMail({ ...base, time_zone: 'UTC' }, 'raised', 'en').text).toContain('Raised: 2026-11-27 03:00 UTC\n');
    const cleared = { ...base, state: 'cleared' as const, cleared_at: Date.UTC(2026, 10, 28, 16, 45) };
    expect(alarmMail(cleared, 'cleared', 'en').text).toContain(
      'Cleared: 2026-11-29 00:45 (Asia/Shanghai, UTC+8) · 2026-11-28 16:45 UTC',
    );
    expect(alarmMail(cleared, 'cleared', 'zh').text).toContain(
      '解除时间：2026-11-29 00:45 (Asia/Shanghai, UTC+8) · 2026-11-28 16:45 UTC',
    );
    expect(alarmMail(base, 'raised', 'en').text).not.toContain('Cleared');
  });

  it('gives the reading with its unit, and durations as days and hours, hours and minutes, or minutes', async () => {
    const { alarmMail } = await import('../src/modules/alarms/alarm-email.ts');
    const text = (over: Partial<Alarm>, lang: 'en' | 'zh') => alarmMail({ ...base, ...over }, 'raised', lang).text;
    expect(text({}, 'en')).toContain('Reading: 28 d 14 h\n');
    expect(text({}, 'zh')).toContain('读数：28 天 14 小时\n');
    expect(text({ value: 200 }, 'en')).toContain('Reading: 3 h 20 min\n');
    expect(text({ value: 200 }, 'zh')).toContain('读数：3 小时 20 分钟\n');
    expect(text({ value: 45 }, 'en')).toContain('Reading: 45 min\n');
    expect(text({ value: 45 }, 'zh')).toContain('读数：45 分钟\n');
    expect(text({ kind: 'no_images', value: 1500 }, 'en')).toContain('Reading: 1 d 1 h\n');
    expect(text({ kind: 'temperature_high', threshold: 40, value: 45.25 }, 'en')).toContain('Reading: 45.3 °C\n');
    expect(text({ kind: 'humidity_high', threshold: 80, value: 82.5 }, 'zh')).toContain('读数：82.5 %\n');
    expect(text({ kind: 'storage_low', threshold: 5, value: 3.2 }, 'en')).toContain('Reading: 3.2 GB\n');
    expect(text({ kind: 'wiper_no_clean', threshold: 2, value: 3 }, 'en')).toContain('Reading: 3 intervals\n');
    expect(text({ kind: 'wiper_no_clean', threshold: 2, value: 3 }, 'zh')).toContain('读数：3 个清洁周期\n');
    expect(text({ kind: 'uvc_off_sampling', value: 0 }, 'en')).toContain('Reading: 0 %\n');
    expect(text({ kind: 'wiper_fault', value: null }, 'en')).toContain('Reading: —\n');
    // A kind this file has no unit for: the bare number, and the rule's name for its condition; nothing throws.
    const unknown = alarmMail({ ...base, kind: 'no_such_kind' as Alarm['kind'], value: 7.25 }, 'raised', 'en');
    expect(unknown.text).toContain('Reading: 7.3\n');
    expect(unknown.subject).toBe('[IPP alarm · major] Daya Bay intake (21001): Quiet');
  });

  it('links to the alarm on PUBLIC_URL, and to nothing without it', async () => {
    const { alarmMail } = await import('../src/modules/alarms/alarm-email.ts');
    expect(alarmMail(base, 'raised', 'en', 'https://ipp.example.org').text).toMatch(
      /\n\nAcknowledge or read it in the console: https:\/\/ipp\.example\.org\/alarms\?alarm=412$/,
    );
    expect(alarmMail(base, 'again', 'zh', 'https://example.org/ipp/').text).toMatch(
      /\n\n在控制台中确认或查看：https:\/\/example\.org\/ipp\/alarms\?alarm=412$/,
    );
    for (const lang of ['en', 'zh'] as const) expect(alarmMail(base, 'raised', lang).text).not.toMatch(/https?:|alarm=/);
    expect(alarmMail(base, 'raised', 'zh').text).toMatch(/在控制台的“告警”页面确认或查看。$/);
  });

  it('takes PUBLIC_URL only as an http(s) address', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://ipp.example.org' }).PUBLIC_URL).toBe('https://ipp.example.org');
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
    for (const bad of ['ipp.example.org', 'ftp://ipp.example.org', 'https://ipp.example.org/?next=x', 'javascript:alert(1)'])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  });
});
