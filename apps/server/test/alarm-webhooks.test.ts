import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ALARM_EVENTS, AlarmNoticeSchema, AlarmSchema, type AlarmWebhook, type AlarmWebhookSaveResult } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlarmOutbox, OUTBOX_MAX_ATTEMPTS } from '../src/modules/alarms/alarm-outbox.ts';
import { WEBHOOK_TIMEOUT_MS, webhookSignature } from '../src/modules/alarms/webhooks.service.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';
import { hangingReceiver, receiver } from './helpers/receivers.ts';

/** A receiver that answers each notice with a redirect to `location`. */
async function redirecting(location: string) {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    res.writeHead(302, { location }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, requests: () => requests, close: () => new Promise((r) => server.close(r)) };
}

/** Issue 23, webhook notifications: signed JSON, retried with backoff from a durable outbox, shared by processes. */
describe.each(dialects)('alarm webhooks on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let hook: Awaited<ReturnType<typeof receiver>> | null = null;
  beforeEach(async () => {
    // The test receivers listen on this machine: the operator's allow-list names them (the default refuses loopback).
    env = await buildTestApp(dialect, { config: { WEBHOOK_POLL_MS: 600_000, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    w = await buildWorld(env);
  });
  afterEach(async () => {
    await hook?.close();
    hook = null;
    await env.close();
  });

  const save = async (token: string | undefined, payload: object, lang = 'en') =>
    body(await call(env, token, 'POST', '/api/alarm/save-webhook', payload, lang));
  const view = async (token: string | undefined) => body(await call(env, token, 'GET', '/api/alarm/webhook'));
  const deliveries = () => env.db.kysely.selectFrom('alarm_deliveries').selectAll().orderBy('id').execute();

  /** A rule, a station breaking it, and the notice it makes in the outbox. */
  const raiseOne = async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    expect(
      body(
        await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', {
          name: 'Hot',
          kind: 'temperature_high',
          threshold: 40,
        }),
      ).code,
    ).toBe(1000);
    expect((await telemetry(env, a1.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    await expect.poll(async () => (await deliveries()).length).toBe(1);
    return a1;
  };

  it('posts each raised alarm as signed JSON, retries with a doubling pause, and shows how deliveries fare', async () => {
    hook = await receiver([500, 503, 200]);
    const saved = await save(w.tokens.ownAdmin, { url: hook.url });
    expect(saved.code, JSON.stringify(saved)).toBe(1000);
    const { secret, webhook } = saved.data as AlarmWebhookSaveResult;
    expect(secret).toMatch(/^[\w-]{32}$/);
    expect(webhook).toMatchObject({ url: hook.url, secret_hint: `…${secret!.slice(-4)}`, pending: 0, failed: 0 });

    await raiseOne();
    await expect.poll(() => hook!.received.length).toBe(1);
    await env.app.alarmOutbox.deliverDue();
    let [row] = await deliveries();
    // The class of the failure only, not what the receiver answered.
    expect(row).toMatchObject({ attempts: 1, last_error: 'HTTP error', delivered_at: null, failed_at: null });
    // Not due again before the pause.
    env.clock.advance(9_000);
    await env.app.alarmOutbox.deliverDue();
    expect(hook.received).toHaveLength(1);
    env.clock.advance(1_000);
    await env.app.alarmOutbox.deliverDue();
    expect(hook.received).toHaveLength(2);
    env.clock.advance(20_000);
    await env.app.alarmOutbox.deliverDue();
    expect(hook.received).toHaveLength(3);
    [row] = await deliveries();
    expect(row).toMatchObject({ attempts: 3, delivered_at: env.clock.now, last_error: null });

    // Every try carries the same body, signed with the team's secret over its own timestamp.
    const bodies = new Set(hook.received.map((r) => r.body));
    expect(bodies.size).toBe(1);
    for (const r of hook.received) {
      const timestamp = Number(r.headers['x-ipp-timestamp']);
      expect(r.headers['x-ipp-signature']).toBe(webhookSignature(secret!, timestamp, r.body));
      expect(r.headers['content-type']).toBe('application/json');
    }
    const notice = AlarmNoticeSchema.parse(JSON.parse(hook.received[0]!.body));
    expect(notice).toMatchObject({ event: 'alarm.raised', alarm: { rule_name: 'Hot', dev_id: 'A1', value: 45 } });
    // A receiver holding another secret would not match.
    expect(webhookSignature('other', 1, hook.received[0]!.body)).not.toBe(hook.received[0]!.headers['x-ipp-signature']);

    const status = (await view(w.tokens.ownAdmin)).data as AlarmWebhook;
    expect(status).toMatchObject({ pending: 0, failed: 0, last_delivery: { ok: true, attempts: 3, error: null } });
  });

  it('posts one incident from raise to clear: acknowledged and cleared carry the same alarm id, each signed (issue 40)', async () => {
    hook = await receiver([200]);
    const { secret } = (await save(w.tokens.ownAdmin, { url: hook.url })).data as AlarmWebhookSaveResult;
    const a1 = await raiseOne();
    const id = (await env.db.kysely.selectFrom('alarms').select('id').executeTakeFirstOrThrow()).id;
    const acked = await call(env, w.tokens.user, 'POST', '/api/alarm/acknowledge', { id, note: 'diver on the way' });
    expect(body(acked).code).toBe(1000);
    env.clock.advance(60_000);
    expect((await telemetry(env, a1.key, { at: env.clock.now, temperature_c: 30 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    await expect.poll(() => hook!.received.length).toBe(3);
    const events = hook.received.map((r) => {
      const timestamp = Number(r.headers['x-ipp-timestamp']);
      expect(r.headers['x-ipp-signature']).toBe(webhookSignature(secret!, timestamp, r.body));
      return AlarmNoticeSchema.parse(JSON.parse(r.body));
    });
    expect(events.map((e) => [e.event, e.alarm.id, e.alarm.state])).toEqual([
      ['alarm.raised', id, 'active'],
      ['alarm.acknowledged', id, 'acknowledged'],
      ['alarm.cleared', id, 'cleared'],
    ]);
    expect(events[1]!.alarm).toMatchObject({ acknowledged_by_name: 'user_a', ack_note: 'diver on the way' });
    expect(events[2]!.alarm).toMatchObject({ cleared_at: env.clock.now, value: 45, severity: 'major' });
  });

  it('posts a signed test notice now and says how it went; only administrators; none without a URL (issue 40)', async () => {
    const test = async (token: string | undefined, lang = 'en') =>
      body(await call(env, token, 'POST', '/api/alarm/test-webhook', {}, lang));
    expect(await test(w.tokens.ownAdmin)).toMatchObject({ code: 1001, msg: 'No webhook URL is set' });
    hook = await receiver([200, 500]);
    const { secret } = (await save(w.tokens.ownAdmin, { url: hook.url })).data as AlarmWebhookSaveResult;
    expect(await test(w.tokens.user)).toMatchObject({ code: 1011 });
    expect(body(await call(env, w.tokens.otherAdmin, 'POST', '/api/alarm/test-webhook', { group_id: w.teamA })).code).toBe(1011);
    expect((await test(w.tokens.ownAdmin)).data).toEqual({ ok: true, error: null });
    expect(hook.received).toHaveLength(1);
    const [first] = hook.received;
    expect(first!.headers['x-ipp-signature']).toBe(
      webhookSignature(secret!, Number(first!.headers['x-ipp-timestamp']), first!.body),
    );
    expect(AlarmNoticeSchema.parse(JSON.parse(first!.body))).toMatchObject({ event: 'alarm.test', alarm: { id: 0 } });
    // The receiver's error, as a class; nothing queued in the outbox either way.
    expect((await test(w.tokens.ownAdmin)).data).toEqual({ ok: false, error: 'HTTP error' });
    expect(await deliveries()).toEqual([]);
  });

  it('gives a notice up after the last try and says so; a new secret is answered once', async () => {
    hook = await receiver([500]);
    const first = (await save(w.tokens.ownAdmin, { url: hook.url })).data as AlarmWebhookSaveResult;
    await raiseOne();
    await expect.poll(() => hook!.received.length).toBe(1);
    for (let i = 0; i < OUTBOX_MAX_ATTEMPTS + 2; i++) {
      env.clock.advance(60 * 60_000);
      await env.app.alarmOutbox.deliverDue();
    }
    expect(hook.received).toHaveLength(OUTBOX_MAX_ATTEMPTS);
    // Hours went by: the administrator signs in again.
    w.tokens.ownAdmin = await login(env, 'admin_a');
    const status = (await view(w.tokens.ownAdmin)).data as AlarmWebhook;
    expect(status).toMatchObject({ pending: 0, failed: 1, last_delivery: { ok: false, error: 'HTTP error' } });

    // Saving the same URL keeps the secret (none answered); asking for a new one answers it once.
    expect(((await save(w.tokens.ownAdmin, { url: hook.url })).data as AlarmWebhookSaveResult).secret).toBeNull();
    const rotated = ((await save(w.tokens.ownAdmin, { url: hook.url, new_secret: true })).data as AlarmWebhookSaveResult).secret;
    expect(rotated).not.toBe(first.secret);
    expect(rotated).toMatch(/^[\w-]{32}$/);
  });

  it('two administrators saving the first URL at once: one new secret, and it is the one that signs', async () => {
    hook = await receiver([200]);
    const answers = await Promise.all([
      save(w.tokens.ownAdmin, { url: hook.url }),
      save(w.tokens.superadmin, { group_id: w.teamA, url: hook.url }),
    ]);
    expect(answers.map((a) => a.code)).toEqual([1000, 1000]);
    const secrets = answers.map((a) => (a.data as AlarmWebhookSaveResult).secret).filter((s) => s !== null);
    expect(secrets).toHaveLength(1);
    await raiseOne();
    await expect.poll(() => hook!.received.length).toBe(1);
    const r = hook.received[0]!;
    expect(r.headers['x-ipp-signature']).toBe(webhookSignature(secrets[0]!, Number(r.headers['x-ipp-timestamp']), r.body));
  });

  it('two processes sharing the outbox send a notice once', async () => {
    hook = await receiver([200]);
    await save(w.tokens.ownAdmin, { url: hook.url });
    await raiseOne();
    // The app sent it at once; made due again, only the two "processes" below deliver it.
    await expect.poll(async () => (await deliveries())[0]!.delivered_at).not.toBeNull();
    const before = hook.received.length;
    await env.db.kysely.updateTable('alarm_deliveries').set({ delivered_at: null, leased_until: null, attempts: 0 }).execute();
    const senders = { webhook: env.app.webhooks.deliver };
    const fail = (e: unknown) => {
      throw e;
    };
    const a = new AlarmOutbox(env.db, env.clock.read, senders, fail);
    const b = new AlarmOutbox(env.db, env.clock.read, senders, fail);
    await Promise.all([a.deliverDue(), b.deliverDue(), a.deliverDue(), b.deliverDue()]);
    expect(hook.received.length - before).toBe(1);
  });

  it("queues a notice in the alarm's own transaction: a failure after queueing keeps neither, the next evaluation both", async () => {
    hook = await receiver([200]);
    expect((await save(w.tokens.ownAdmin, { url: hook.url })).code).toBe(1000);
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const rule = await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', {
      name: 'Hot',
      kind: 'temperature_high',
      threshold: 40,
    });
    expect(body(rule).code).toBe(1000);
    await env.app.alarms.settled();
    // A notifier after the webhook's fails, as a crash would after the outbox row was written.
    let broken = true;
    env.app.alarms.useNotifier({
      enqueue: async () => {
        if (broken) throw new Error('crash after queueing');
      },
    });
    expect((await telemetry(env, a1.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
    await expect(env.app.alarms.evaluateStation(a1.id)).rejects.toThrow('crash after queueing');
    await env.app.alarms.settled();
    expect(await env.db.kysely.selectFrom('alarms').selectAll().execute()).toEqual([]);
    expect(await deliveries()).toEqual([]);
    broken = false;
    await env.app.alarms.evaluateStation(a1.id);
    const [alarm] = await env.db.kysely.selectFrom('alarms').select('id').execute();
    expect((await deliveries()).map((d) => d.alarm_id)).toEqual([alarm!.id]);
    await expect.poll(() => hook!.received.length).toBe(1);
  });

  it("one team's receiver that never answers holds up no other team's notice, and is backed off on its own (issue 37)", async () => {
    const hang = await hangingReceiver();
    try {
      hook = await receiver([200]);
      expect((await save(w.tokens.ownAdmin, { url: hang.url })).code).toBe(1000);
      expect((await save(w.tokens.otherAdmin, { url: hook.url })).code).toBe(1000);
      // Team A: 12 alarms at once, 12 notices for the receiver that never answers.
      const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
      for (let i = 1; i <= 12; i++) {
        const rule = { name: `Hot ${i}`, kind: 'temperature_high', threshold: 40 };
        expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', rule)).code).toBe(1000);
      }
      await env.app.alarms.settled();
      expect((await telemetry(env, a1.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
      await env.app.alarms.settled();
      expect(await deliveries()).toHaveLength(12);
      await expect.poll(() => hang.requests()).toBe(1);

      // Team B's alarm, while A's receiver holds its first notice.
      const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
      const rule = { name: 'Hot B', kind: 'temperature_high', threshold: 40 };
      expect(body(await call(env, w.tokens.otherAdmin, 'POST', '/api/alarm/save-rule', rule)).code).toBe(1000);
      await env.app.alarms.settled();
      const started = Date.now();
      expect((await telemetry(env, b1.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
      await expect.poll(() => hook!.received.length, { timeout: 2000, interval: 20 }).toBe(1);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(AlarmNoticeSchema.parse(JSON.parse(hook.received[0]!.body)).alarm).toMatchObject({ dev_id: 'B1' });

      // A's try ends at the short deadline as a timeout; its 11 other notices wait with it, untried.
      const ofA = async () => (await deliveries()).filter((d) => d.group_id === w.teamA);
      await expect
        .poll(async () => (await ofA()).filter((d) => d.attempts === 1).length, {
          timeout: WEBHOOK_TIMEOUT_MS + 5000,
          interval: 100,
        })
        .toBe(1);
      const [first, ...rest] = await ofA();
      expect(first).toMatchObject({ attempts: 1, last_error: 'timeout', delivered_at: null });
      expect(Number(first!.next_at)).toBe(env.clock.now + 10_000);
      expect(rest.map((d) => [d.attempts, Number(d.next_at)])).toEqual(rest.map(() => [0, env.clock.now + 10_000]));
      expect(hang.requests()).toBe(1);
      expect((await view(w.tokens.ownAdmin)).data).toMatchObject({ pending: 12, last_delivery: { ok: false, error: 'timeout' } });
    } finally {
      await hang.close();
    }
  });

  it('follows no redirect, and refuses another name for an allowed address (the allow-list is by name)', async () => {
    hook = await receiver([200]);
    const port = new URL(hook.url).port;
    const bounce = await redirecting(hook.url);
    try {
      expect((await save(w.tokens.ownAdmin, { url: bounce.url })).code).toBe(1000);
      await raiseOne();
      await expect.poll(async () => (await deliveries())[0]!.attempts).toBe(1);
      expect(bounce.requests()).toBe(1);
      expect(hook.received).toHaveLength(0);
      expect((await deliveries())[0]).toMatchObject({ last_error: 'HTTP error', delivered_at: null });
    } finally {
      await bounce.close();
    }
    const named = await save(w.tokens.ownAdmin, { url: `http://localhost:${port}/hook` });
    expect(named).toMatchObject({ code: 1002, model: { field: 'url' } });
  });

  it('lets only administrators of the team see and set it, and refuses a URL that is not http(s), in the user language', async () => {
    expect((await view(w.tokens.user)).code).toBe(1011);
    expect((await save(w.tokens.user, { url: 'https://example.org/x' })).code).toBe(1011);
    expect((await save(undefined, { url: 'https://example.org/x' })).code).toBe(1010);
    const bad = await save(w.tokens.ownAdmin, { url: 'ftp://example.org/x' }, 'zh');
    expect(bad.code).toBe(1002);
    expect(bad.msg).toContain('url');
    expect(bad.msg).toContain('格式不正确');
    expect((await save(w.tokens.ownAdmin, { url: 'https://example.org/x' })).code).toBe(1000);
    expect((await view(w.tokens.otherAdmin)).data).toMatchObject({ url: null });
    expect(body(await call(env, w.tokens.otherAdmin, 'GET', `/api/alarm/webhook?group_id=${w.teamA}`)).code).toBe(1011);
    expect((await view(w.tokens.ownAdmin)).data).toMatchObject({ url: 'https://example.org/x' });
    expect((await save(w.tokens.ownAdmin, { url: null })).code).toBe(1000);
    expect((await view(w.tokens.ownAdmin)).data).toMatchObject({ url: null, secret_hint: null });
  });
});

/** Issue 37: webhooks never reach inside the console's host or its networks, whatever the spelling, saved or sent. */
describe.each(dialects)('webhook addresses on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeEach(async () => {
    env = await buildTestApp(dialect, { config: { WEBHOOK_POLL_MS: 600_000 } });
    w = await buildWorld(env);
    hook = await receiver([200]);
  });
  afterEach(async () => {
    await hook.close();
    await env.close();
  });
  const save = async (payload: object, lang = 'en') =>
    body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-webhook', payload, lang));
  const deliveries = () => env.db.kysely.selectFrom('alarm_deliveries').selectAll().orderBy('id').execute();

  it('refuses to save loopback, private, link-local, multicast and unspecified addresses in every spelling, in the user language', async () => {
    const port = new URL(hook.url).port;
    const inside = [
      '127.0.0.1',
      'localhost',
      'LocalHost.',
      '0.0.0.0',
      '0',
      '2130706433',
      '0x7f000001',
      '0x7f.1',
      '127.1',
      '0177.0.0.1',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '[fc00::1]',
      '[fd12:3456::1]',
      '[fe80::1]',
      '224.0.0.1',
      '[ff02::1]',
      '255.255.255.255',
    ];
    for (const host of inside) {
      const res = await save({ url: `http://${host}:${port}/hook` });
      expect(res, host).toMatchObject({ code: 1002, model: { field: 'url' } });
      expect(res.msg).toContain('private, link-local or multicast');
    }
    const zh = await save({ url: `https://169.254.169.254/latest/meta-data/` }, 'zh');
    expect(zh).toMatchObject({ code: 1002 });
    expect(zh.msg).toContain('内网');
    expect((await save({ url: 'http://93.184.215.14/hook' })).code).toBe(1000);
    expect(hook.received).toHaveLength(0);
  });

  it('refuses again when sending: a name that now resolves inside, a stored literal; the team sees only the class', async () => {
    const port = new URL(hook.url).port;
    // A URL accepted when saved may point inside later (its name rebound, or saved before this check existed).
    await env.db.kysely
      .insertInto('alarm_webhooks')
      .values({ group_id: w.teamA, url: `http://localhost:${port}/hook`, secret: 'x'.repeat(32), updated_at: env.clock.now })
      .execute();
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const rule = { name: 'Hot', kind: 'temperature_high', threshold: 40 };
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', rule)).code).toBe(1000);
    await env.app.alarms.settled();
    expect((await telemetry(env, a1.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    await expect.poll(async () => (await deliveries())[0]?.attempts).toBe(1);
    expect((await deliveries())[0]).toMatchObject({ last_error: 'address not allowed', delivered_at: null });

    await env.db.kysely
      .updateTable('alarm_webhooks')
      .set({ url: `http://2130706433:${port}/hook` })
      .execute();
    env.clock.advance(10_000);
    await env.app.alarmOutbox.deliverDue();
    expect((await deliveries())[0]).toMatchObject({ attempts: 2, last_error: 'address not allowed' });
    expect(hook.received).toHaveLength(0);
    const status = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/alarm/webhook')).data as AlarmWebhook;
    expect(status.last_delivery).toMatchObject({ ok: false, error: 'address not allowed' });
    // A failure stored before this check (the receiver's own status) is shown as a class too.
    await env.db.kysely.updateTable('alarm_deliveries').set({ last_error: 'HTTP 403' }).execute();
    const old = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/alarm/webhook')).data as AlarmWebhook;
    expect(old.last_delivery).toMatchObject({ ok: false, error: 'network error' });
  });
});

describe('the webhook payload documented in docs/alarms.md', () => {
  it('is a notice the server could send: the example parses with the contract, and every event is listed', () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../docs/alarms.md'), 'utf8');
    const example = /<!-- webhook-example:start -->\s*```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const raw = JSON.parse(example!) as { alarm: object };
    AlarmNoticeSchema.strict().parse(raw);
    // No field the server does not send (parsing alone would drop an extra one silently).
    expect(Object.keys(raw.alarm).sort()).toEqual(Object.keys(AlarmSchema.shape).sort());
    for (const event of ALARM_EVENTS) expect(doc).toContain(`| \`${event}\` |`);
  });
});
