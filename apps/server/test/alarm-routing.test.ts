import { AlarmNoticeSchema, type AlarmNotice, type AlarmRule } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';
import { receiver } from './helpers/receivers.ts';
import { smtpServer } from './helpers/smtp.ts';

/**
 * Issue 40, item 6: routing per rule (which people by e-mail, whether the webhook) and escalation of an alarm left
 * unacknowledged, with a controlled clock, against a real local SMTP server and a real local webhook receiver.
 */
describe.each(dialects)('alarm routing and escalation on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let quiet: number;
  beforeEach(async () => {
    smtp = await smtpServer();
    hook = await receiver([200]);
    env = await buildTestApp(dialect, {
      config: { SMTP_URL: smtp.url, WEBHOOK_POLL_MS: 600_000, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    });
    w = await buildWorld(env);
    quiet = await createUser(env, 'quiet_a', 'user', { groupId: w.teamA });
    for (const [account, email] of [
      ['admin_a', 'admin@example.org'],
      ['user_a', 'user@example.org'],
      ['quiet_a', 'quiet@example.org'],
      ['admin_b', 'other@example.org'],
    ] as const)
      await env.db.kysely.updateTable('users').set({ email, language: 'en' }).where('account', '=', account).execute();
    // The administrator chose every alarm of the team; the others chose none.
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-my-email', { alarm_email: 'team' })).code).toBe(1000);
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-webhook', { url: hook.url })).code).toBe(1000);
  });
  afterEach(async () => {
    await env.close();
    await smtp.close();
    await hook.close();
  });

  const rule = async (over: object) => {
    const res = body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', { name: 'rule', ...over }));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    await env.app.alarms.settled();
    return res.data as AlarmRule;
  };
  const report = async (key: string, sample: object, afterMs = 60_000) => {
    env.clock.advance(afterMs);
    expect((await telemetry(env, key, { at: env.clock.now, ...sample })).statusCode).toBe(200);
    await env.app.alarms.settled();
  };
  const check = async (afterMs: number) => {
    env.clock.advance(afterMs);
    await env.app.alarms.checkAll();
    await env.app.alarms.settled();
  };
  const notices = () => hook.received.map((r) => AlarmNoticeSchema.parse(JSON.parse(r.body)) as AlarmNotice);
  const events = () => notices().map((n) => `${n.alarm.rule_name}:${n.event}`);
  const mails = () => smtp.mails.map((m) => `${m.to.join(',')}:${m.subject}`);
  /** Both channels have had time to send everything queued (the outbox sends right after each commit). */
  const delivered = async (webhook: number, email: number) => {
    await expect.poll(() => hook.received.length, { timeout: 5000 }).toBe(webhook);
    await expect.poll(() => smtp.mails.length, { timeout: 5000 }).toBe(email);
  };

  it('e-mails only the people a rule names, whatever they chose, and keeps a rule off the webhook', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const hot = await rule({
      name: 'Hot',
      kind: 'temperature_high',
      threshold: 40,
      notify_user_ids: [w.ids.user],
      notify_webhook: false,
    });
    expect(hot).toMatchObject({ notify_user_ids: [w.ids.user], notify_webhook: false, escalate_minutes: 0 });
    await rule({ name: 'Leak', kind: 'humidity_high', threshold: 80 });
    await report(a1.key, { temperature_c: 45, humidity_pct: 50 });
    await report(a1.key, { temperature_c: 45, humidity_pct: 90 });
    await delivered(1, 2);
    expect(events()).toEqual(['Leak:alarm.raised']);
    expect(mails().sort()).toEqual([
      'admin@example.org:[IPP alarm · critical] Site A1 (A1): internal humidity above 80 %',
      'user@example.org:[IPP alarm · major] Site A1 (A1): internal temperature above 40 °C',
    ]);
    // The clear goes the same way as the raise.
    await report(a1.key, { temperature_c: 20, humidity_pct: 50 });
    await delivered(2, 4);
    expect(events()).toEqual(['Leak:alarm.raised', 'Leak:alarm.cleared']);
    expect(
      mails()
        .filter((m) => m.endsWith('(cleared)'))
        .map((m) => m.split(':')[0])
        .sort(),
    ).toEqual(['admin@example.org', 'user@example.org']);
  });

  it('escalates an alarm left unacknowledged past the rule’s minutes, once, to its people and the webhook', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({
      name: 'Leak',
      kind: 'humidity_high',
      threshold: 80,
      notify_webhook: false,
      escalate_minutes: 15,
      escalate_user_ids: [quiet],
      escalate_webhook: true,
    });
    await report(a1.key, { humidity_pct: 90 });
    await delivered(0, 1);
    await check(14 * 60_000);
    await delivered(0, 1);
    // Fifteen minutes after it raised, still unacknowledged: the periodic check escalates it, even without a report.
    await check(60_000);
    await delivered(1, 2);
    expect(events()).toEqual(['Leak:alarm.escalated']);
    expect(notices()[0]!.alarm).toMatchObject({ state: 'active', escalated_at: env.clock.now });
    expect(smtp.mails[1]).toMatchObject({ to: ['quiet@example.org'] });
    expect(smtp.mails[1]!.subject).toContain('(still unacknowledged: escalated)');
    // Once only: later checks and reports do not escalate again.
    await check(30 * 60_000);
    await report(a1.key, { humidity_pct: 91 });
    await delivered(1, 2);
    const list = body(await call(env, w.tokens.user, 'GET', '/api/alarm/list')).data as { escalated_at: number | null }[];
    expect(list[0]!.escalated_at).not.toBeNull();
  });

  it('does not escalate an alarm acknowledged in time, nor one a silence covers, and escalates once with two checks at once', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    const a3 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A3');
    await rule({
      name: 'Leak',
      kind: 'humidity_high',
      threshold: 80,
      notify_webhook: false,
      escalate_minutes: 10,
      escalate_webhook: true,
    });
    await report(a1.key, { humidity_pct: 90 }, 0);
    await report(a2.key, { humidity_pct: 90 }, 0);
    await report(a3.key, { humidity_pct: 90 }, 0);
    const open = body(await call(env, w.tokens.user, 'GET', '/api/alarm/list')).data as { id: number; dev_id: string }[];
    const byStation = new Map(open.map((a) => [a.dev_id, a.id]));
    expect(
      body(await call(env, w.tokens.user, 'POST', '/api/alarm/acknowledge', { id: byStation.get('A1'), note: 'on it' })).code,
    ).toBe(1000);
    const silence = { ipp_id: a2.id, ends_at: env.clock.now + 3_600_000, reason: 'diver at the station' };
    expect(body(await call(env, w.tokens.user, 'POST', '/api/alarm/save-silence', silence)).code).toBe(1000);
    env.clock.advance(10 * 60_000);
    await Promise.all([env.app.alarms.checkAll(), env.app.alarms.evaluateStation(a3.id), env.app.alarms.evaluateStation(a3.id)]);
    await env.app.alarms.settled();
    await delivered(1, 3);
    expect(notices().map((n) => [n.event, n.alarm.dev_id])).toEqual([['alarm.escalated', 'A3']]);
  });

  it('refuses to route to another team’s people or to escalate to nobody, in the user’s language', async () => {
    const other = body(
      await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', {
        name: 'Hot',
        kind: 'temperature_high',
        threshold: 40,
        notify_user_ids: [w.ids.otherAdmin],
      }),
    );
    expect(other).toMatchObject({ code: 1002, msg: 'The user does not exist' });
    const nobody = body(
      await call(
        env,
        w.tokens.ownAdmin,
        'POST',
        '/api/alarm/save-rule',
        { name: 'Hot', kind: 'temperature_high', threshold: 40, escalate_minutes: 5 },
        'zh',
      ),
    );
    expect(nobody.code).toBe(1002);
    expect(nobody.msg).toContain('请选择升级通知的人员或 Webhook');
    expect((body(await call(env, w.tokens.user, 'GET', '/api/alarm/rules')).data as unknown[]).length).toBe(0);
  });
});
