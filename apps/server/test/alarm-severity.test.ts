import { MAX_SILENCES_PER_TEAM, type Alarm, type AlarmRule } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

/**
 * Issue 40, alarms an operator can run a fleet on: severity, durations (pending), clear levels (hysteresis) and what
 * no data does, driven through the real telemetry ingest path, with the notices counted as the notifiers receive them.
 */
describe.each(dialects)('alarm severity, durations and hysteresis on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let notices: [string, string, number][];
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    notices = [];
    env.app.alarms.useNotifier({
      enqueue: async (_trx, alarm, reason) => void notices.push([alarm.rule_name, reason, alarm.id]),
    });
  });
  afterEach(() => env.close());

  const saveRule = async (rule: object, lang = 'en') =>
    body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/save-rule', { name: 'rule', ...rule }, lang));
  const rule = async (over: object) => {
    const res = await saveRule(over);
    expect(res.code, JSON.stringify(res)).toBe(1000);
    await env.app.alarms.settled();
    return res.data as AlarmRule;
  };
  const alarms = async (query = '') => {
    const res = body(await call(env, w.tokens.user, 'GET', `/api/alarm/list${query}`));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return { rows: res.data as Alarm[], count: res.count as number };
  };
  const summary = async () => body(await call(env, w.tokens.user, 'GET', '/api/alarm/summary')).data;
  const report = async (key: string, sample: object, afterMs = 60_000) => {
    env.clock.advance(afterMs);
    expect((await telemetry(env, key, { at: env.clock.now, ...sample })).statusCode).toBe(200);
    await env.app.alarms.settled();
  };
  const reasons = () => notices.map(([name, reason]) => `${name}:${reason}`);

  it('gives each rule a severity (its kind’s by default), keeps it on the alarm, orders open alarms by it and counts it', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const storage = await rule({ name: 'Disk', kind: 'storage_low', threshold: 10 });
    const hot = await rule({ name: 'Hot', kind: 'temperature_high', threshold: 30, severity: 'warning' });
    const leak = await rule({ name: 'Leak', kind: 'humidity_high', threshold: 80 });
    expect([storage.severity, hot.severity, leak.severity]).toEqual(['minor', 'warning', 'critical']);
    await report(a1.key, { storage_gb: 5 });
    await report(a1.key, { temperature_c: 35 });
    await report(a1.key, { humidity_pct: 90 });
    // Newest is the leak, but order is by weight first: critical, minor, warning.
    const open = await alarms();
    expect(open.rows.map((a) => [a.rule_name, a.severity])).toEqual([
      ['Leak', 'critical'],
      ['Disk', 'minor'],
      ['Hot', 'warning'],
    ]);
    // History stays newest first.
    expect((await alarms('?state=all')).rows.map((a) => a.rule_name)).toEqual(['Leak', 'Hot', 'Disk']);
    expect(await summary()).toEqual({
      active: 3,
      acknowledged: 0,
      pending: 0,
      by_severity: { critical: 1, major: 0, minor: 1, warning: 1 },
    });
    // A rule's later change of severity leaves the history it raised as it was raised.
    await rule({ id: hot.id, name: 'Hot', kind: 'temperature_high', threshold: 30, severity: 'critical' });
    expect((await alarms('?state=cleared')).rows[0]).toMatchObject({ rule_name: 'Hot', severity: 'warning' });
  });

  it('raises once and clears once while a reading hovers around the limit with a clear level; without one it flaps', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    await rule({ name: 'Steady', kind: 'humidity_high', threshold: 80, clear_threshold: 75, ipp_id: a1.id });
    await rule({ name: 'Flappy', kind: 'humidity_high', threshold: 80, ipp_id: a2.id });
    const hover = [79, 81, 79.5, 80.5, 78, 82, 79, 80.2, 76];
    for (const humidity of hover) {
      await report(a1.key, { humidity_pct: humidity }, 30_000);
      await report(a2.key, { humidity_pct: humidity }, 30_000);
    }
    expect(reasons().filter((r) => r.startsWith('Steady'))).toEqual(['Steady:raised']);
    expect(reasons().filter((r) => r.startsWith('Flappy')).length).toBe(8);
    await report(a1.key, { humidity_pct: 74.9 });
    expect(reasons().filter((r) => r.startsWith('Steady'))).toEqual(['Steady:raised', 'Steady:cleared']);
    // One incident: the raise and the clear name the same alarm.
    const steady = notices.filter(([name]) => name === 'Steady');
    expect(steady[0]![2]).toBe(steady[1]![2]);

    // The same the other way round for a "below" kind.
    notices.length = 0;
    await rule({ name: 'Disk', kind: 'storage_low', threshold: 10, clear_threshold: 12, ipp_id: a1.id });
    for (const gb of [11, 9, 10.5, 9.8, 11.9, 9.5]) await report(a1.key, { storage_gb: gb, humidity_pct: 50 }, 30_000);
    await report(a1.key, { storage_gb: 12.5, humidity_pct: 50 });
    expect(reasons()).toEqual(['Disk:raised', 'Disk:cleared']);
  });

  it('keeps an alarm pending for the rule’s duration, drops it without history if the condition ends sooner, and raises once after', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Hot 10', kind: 'temperature_high', threshold: 40, for_minutes: 10 });
    await report(a1.key, { temperature_c: 45 });
    expect((await alarms()).rows.map((a) => a.state)).toEqual(['pending']);
    expect(await summary()).toMatchObject({ active: 0, pending: 1 });
    await report(a1.key, { temperature_c: 46 }, 5 * 60_000);
    await report(a1.key, { temperature_c: 30 }, 60_000);
    expect((await alarms('?state=all')).count).toBe(0);
    expect(notices).toEqual([]);

    await report(a1.key, { temperature_c: 45 });
    const since = env.clock.now;
    await report(a1.key, { temperature_c: 47 }, 9 * 60_000);
    expect((await alarms()).rows[0]).toMatchObject({ state: 'pending', raised_at: since, value: 47 });
    // Ten minutes on, the periodic check raises it even without a new report.
    env.clock.advance(60_000);
    await Promise.all([env.app.alarms.checkAll(), env.app.alarms.evaluateStation(a1.id)]);
    await env.app.alarms.settled();
    const [raised] = (await alarms()).rows;
    expect(raised).toMatchObject({ state: 'active', raised_at: env.clock.now });
    expect(reasons()).toEqual(['Hot 10:raised']);
    await report(a1.key, { temperature_c: 20 });
    expect(reasons()).toEqual(['Hot 10:raised', 'Hot 10:cleared']);
  });

  it('does what each rule says on no data: keeps, raises or clears', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Keep', kind: 'humidity_high', threshold: 80 });
    await rule({ name: 'Clear', kind: 'temperature_high', threshold: 40, no_data: 'clear' });
    await rule({ name: 'Raise', kind: 'storage_low', threshold: 10, no_data: 'raise' });
    await report(a1.key, { humidity_pct: 90, temperature_c: 45, storage_gb: 50 });
    expect(reasons().sort()).toEqual(['Clear:raised', 'Keep:raised']);
    // Silent past the system's offline threshold: nothing shows either way.
    env.clock.advance(20 * 60_000);
    await env.app.alarms.checkAll();
    const open = await alarms();
    expect(open.rows.map((a) => [a.rule_name, a.state, a.value]).sort()).toEqual([
      ['Keep', 'active', 90],
      ['Raise', 'active', null],
    ]);
    expect(reasons().sort()).toEqual(['Clear:cleared', 'Clear:raised', 'Keep:raised', 'Raise:raised']);
  });

  it('refuses a clear level on the wrong side of the limit or on a kind without one, in the caller’s language', async () => {
    const above = await saveRule({ kind: 'humidity_high', threshold: 80, clear_threshold: 85 });
    expect(above).toMatchObject({ code: 1002, msg: expect.stringContaining('must not be above the limit') });
    const below = await saveRule({ kind: 'storage_low', threshold: 10, clear_threshold: 5 }, 'zh');
    expect(below).toMatchObject({ code: 1002, msg: expect.stringContaining('不能低于告警阈值') });
    const none = await saveRule({ kind: 'offline', minutes: 15, clear_threshold: 5 });
    expect(none).toMatchObject({ code: 1002, msg: expect.stringContaining('clear_threshold') });
    const long = await saveRule({ kind: 'offline', minutes: 15, for_minutes: 2000 });
    expect(long.code).toBe(1002);
    const severity = await saveRule({ kind: 'offline', minutes: 15, severity: 'fatal' });
    expect(severity.code).toBe(1002);
    expect(await env.db.kysely.selectFrom('alarm_rules').select('id').execute()).toEqual([]);
  });

  it('tells receivers an alarm was acknowledged once when two people acknowledge at once, and cleared when its rule changes', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const hot = await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await report(a1.key, { temperature_c: 45 });
    const id = (await alarms()).rows[0]!.id;
    const acks = await Promise.all(
      [w.tokens.user, w.tokens.ownAdmin].map(async (token) =>
        body(await call(env, token, 'POST', '/api/alarm/acknowledge', { id, note: 'on it' })),
      ),
    );
    expect(acks.map((a) => a.code).sort()).toEqual([1000, 1001]);
    await rule({ id: hot.id, name: 'Hot', kind: 'temperature_high', threshold: 50 });
    expect(notices).toEqual([
      ['Hot', 'raised', id],
      ['Hot', 'acknowledged', id],
      ['Hot', 'cleared', id],
    ]);
  });
});

describe.each(dialects)('clearing an alarm by hand and its comment thread on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let notices: [string, number][];
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    notices = [];
    env.app.alarms.useNotifier({ enqueue: async (_trx, alarm, reason) => void notices.push([reason, alarm.id]) });
  });
  afterEach(() => env.close());

  const post = async (token: string | undefined, path: string, payload: object, lang = 'en') =>
    body(await call(env, token, 'POST', `/api/alarm/${path}`, payload, lang));
  const raiseLeak = async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const saved = await post(w.tokens.ownAdmin, 'save-rule', { name: 'Leak', kind: 'humidity_high', threshold: 80 });
    expect(saved.code).toBe(1000);
    env.clock.advance(60_000);
    expect((await telemetry(env, a1.key, { at: env.clock.now, humidity_pct: 90 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    const alarm = await env.db.kysely.selectFrom('alarms').selectAll().executeTakeFirstOrThrow();
    return { a1, id: alarm.id };
  };

  it('lets an administrator clear an open alarm with a reason; users and other teams cannot; receivers hear it', async () => {
    const { a1, id } = await raiseLeak();
    expect(await post(w.tokens.user, 'clear', { id, reason: 'sensor replaced' })).toMatchObject({ code: 1011 });
    expect(await post(w.tokens.otherAdmin, 'clear', { id, reason: 'x' })).toMatchObject({ code: 1002 });
    expect(await post(w.tokens.ownAdmin, 'clear', { id, reason: '  ' }, 'zh')).toMatchObject({ code: 1002 });
    // Two administrators at once: one clears, the other is told it is no longer open.
    const both = await Promise.all([
      post(w.tokens.ownAdmin, 'clear', { id, reason: 'sensor replaced' }),
      post(w.tokens.superadmin, 'clear', { id, reason: 'duplicate' }),
    ]);
    expect(both.map((b) => b.code).sort()).toEqual([1000, 1001]);
    const row = await env.db.kysely.selectFrom('alarms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'cleared', cleared_at: env.clock.now });
    expect(['admin_a', 'su']).toContain(row.cleared_by_name);
    expect(notices).toEqual([
      ['raised', id],
      ['cleared', id],
    ]);
    const listed = body(await call(env, w.tokens.user, 'GET', '/api/alarm/list?state=cleared')).data as Alarm[];
    expect(listed[0]).toMatchObject({ id, clear_reason: row.clear_reason, cleared_by_name: row.cleared_by_name });
    // The condition still holds: the next reading raises a new alarm.
    env.clock.advance(60_000);
    expect((await telemetry(env, a1.key, { at: env.clock.now, humidity_pct: 91 })).statusCode).toBe(200);
    await env.app.alarms.settled();
    expect(notices.at(-1)?.[0]).toBe('raised');
    expect(notices.at(-1)?.[1]).not.toBe(id);
  });

  it('keeps a comment thread per alarm for its team, oldest first, two at once both kept', async () => {
    const { id } = await raiseLeak();
    const [a, b] = await Promise.all([
      post(w.tokens.user, 'comment', { id, text: 'diver booked for 14:00' }),
      post(w.tokens.ownAdmin, 'comment', { id, text: 'spare housing in the van' }),
    ]);
    expect([a.code, b.code]).toEqual([1000, 1000]);
    expect(await post(w.tokens.otherAdmin, 'comment', { id, text: 'not mine' })).toMatchObject({ code: 1002 });
    expect(await post(w.tokens.user, 'comment', { id, text: '' }, 'zh')).toMatchObject({ code: 1002 });
    const thread = body(await call(env, w.tokens.user, 'GET', `/api/alarm/comments?id=${id}`));
    expect(thread.code).toBe(1000);
    const comments = thread.data as { user_name: string; text: string; id: number }[];
    expect(comments.map((c) => c.text).sort()).toEqual(['diver booked for 14:00', 'spare housing in the van']);
    expect(comments[0]!.id).toBeLessThan(comments[1]!.id);
    expect(body(await call(env, w.tokens.otherAdmin, 'GET', `/api/alarm/comments?id=${id}`)).code).toBe(1002);
  });
});

describe.each(dialects)('silences and maintenance windows on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let notices: string[];
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    notices = [];
    env.app.alarms.useNotifier({
      enqueue: async (_trx, alarm, reason) => void notices.push(`${alarm.dev_id}:${alarm.rule_name}:${reason}`),
    });
  });
  afterEach(() => env.close());

  const post = async (token: string | undefined, path: string, payload: object, lang = 'en') =>
    body(await call(env, token, 'POST', `/api/alarm/${path}`, payload, lang));
  const report = async (key: string, sample: object) => {
    env.clock.advance(60_000);
    expect((await telemetry(env, key, { at: env.clock.now, ...sample })).statusCode).toBe(200);
    await env.app.alarms.settled();
  };
  const list = async (query = '') => body(await call(env, w.tokens.user, 'GET', `/api/alarm/list${query}`)).data as Alarm[];
  const HOUR = 3_600_000;

  it('holds the raise of a silenced station, lists it as silenced, and tells it when the silence ends if still active', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    expect((await post(w.tokens.ownAdmin, 'save-rule', { name: 'Leak', kind: 'humidity_high', threshold: 80 })).code).toBe(1000);
    const silence = await post(w.tokens.user, 'save-silence', {
      ipp_id: a1.id,
      ends_at: env.clock.now + HOUR,
      reason: 'diver maintenance',
    });
    expect(silence.code, JSON.stringify(silence)).toBe(1000);
    expect(silence.data).toMatchObject({ ipp_id: a1.id, rule_id: null, created_by_name: 'user_a', reason: 'diver maintenance' });
    await report(a1.key, { humidity_pct: 90 });
    await report(a2.key, { humidity_pct: 90 });
    expect(notices).toEqual(['A2:Leak:raised']);
    const open = await list();
    expect(open.map((a) => [a.dev_id, a.state, a.silenced]).sort()).toEqual([
      ['A1', 'active', true],
      ['A2', 'active', false],
    ]);
    // Still high when the silence ends by itself: the held raise is told then, once.
    env.clock.advance(HOUR);
    await Promise.all([env.app.alarms.checkAll(), env.app.alarms.evaluateStation(a1.id)]);
    await env.app.alarms.settled();
    expect(notices).toEqual(['A2:Leak:raised', 'A1:Leak:raised']);
    // (An hour on, the test's sessions have lapsed: a new one.)
    const token = await login(env, 'user_a');
    const after = body(await call(env, token, 'GET', '/api/alarm/list')).data as Alarm[];
    expect(after.map((a) => a.silenced)).toEqual([false, false]);
    expect(body(await call(env, token, 'GET', '/api/alarm/silences')).data).toEqual([]);
  });

  it('tells nothing of an alarm raised and cleared inside a silence, but closes an incident the receivers heard of', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const leak = await post(w.tokens.ownAdmin, 'save-rule', { name: 'Leak', kind: 'humidity_high', threshold: 80 });
    await post(w.tokens.ownAdmin, 'save-rule', { name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await report(a1.key, { temperature_c: 45, humidity_pct: 50 });
    expect(notices).toEqual(['A1:Hot:raised']);
    // The whole team silenced, then one rule only in a window planned for later.
    const team = await post(w.tokens.ownAdmin, 'save-silence', { ends_at: env.clock.now + HOUR, reason: 'storm' });
    expect(team.code).toBe(1000);
    await report(a1.key, { temperature_c: 20, humidity_pct: 90 });
    await report(a1.key, { humidity_pct: 50 });
    expect(notices).toEqual(['A1:Hot:raised', 'A1:Hot:cleared']);
    const window = await post(w.tokens.ownAdmin, 'save-silence', {
      rule_id: (leak.data as AlarmRule).id,
      starts_at: env.clock.now + 2 * HOUR,
      ends_at: env.clock.now + 3 * HOUR,
      reason: 'planned recovery',
    });
    expect(window.code).toBe(1000);
    // Ending the team silence early: the window has not begun, so a leak now is told at once.
    expect((await post(w.tokens.user, 'end-silence', { id: (team.data as { id: number }).id })).code).toBe(1000);
    await report(a1.key, { humidity_pct: 95 });
    expect(notices.at(-1)).toBe('A1:Leak:raised');
    const silences = body(await call(env, w.tokens.user, 'GET', '/api/alarm/silences')).data as { reason: string }[];
    expect(silences.map((x) => x.reason)).toEqual(['planned recovery']);
  });

  it('refuses a silence in the past, too long, on another team’s station, and keeps silences to their team', async () => {
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    const now = env.clock.now;
    expect(await post(w.tokens.user, 'save-silence', { ends_at: now - 1, reason: 'x' })).toMatchObject({
      code: 1002,
      msg: expect.stringContaining('must end in the future'),
    });
    expect(await post(w.tokens.user, 'save-silence', { ends_at: now + 31 * 24 * HOUR, reason: 'x' }, 'zh')).toMatchObject({
      code: 1002,
      msg: expect.stringContaining('30 天'),
    });
    expect(await post(w.tokens.user, 'save-silence', { ipp_id: b1.id, ends_at: now + HOUR, reason: 'x' })).toMatchObject({
      code: 1002,
    });
    expect((await post(w.tokens.user, 'save-silence', { ends_at: now + HOUR, reason: '' })).code).toBe(1002);
    const mine = await post(w.tokens.user, 'save-silence', { ends_at: now + HOUR, reason: 'mine' });
    expect(await post(w.tokens.otherAdmin, 'end-silence', { id: (mine.data as { id: number }).id })).toMatchObject({
      code: 1002,
    });
    expect(body(await call(env, w.tokens.otherAdmin, 'GET', '/api/alarm/silences')).data).toEqual([]);
    expect(body(await call(env, w.tokens.otherAdmin, 'GET', `/api/alarm/silences?group_id=${w.teamA}`)).code).toBe(1011);
    expect((await post(w.tokens.otherAdmin, 'save-silence', { group_id: w.teamA, ends_at: now + HOUR, reason: 'x' })).code).toBe(
      1011,
    );
    // Two at once at the team's limit: one more fits, the other is refused.
    const rows = Array.from({ length: MAX_SILENCES_PER_TEAM - 2 }, () => ({
      group_id: w.teamA,
      starts_at: now,
      ends_at: now + HOUR,
      reason: 'filler',
      created_by_name: 'x',
      created_at: now,
    }));
    await env.db.kysely.insertInto('alarm_silences').values(rows).execute();
    const both = await Promise.all([
      post(w.tokens.user, 'save-silence', { ends_at: now + HOUR, reason: 'a' }),
      post(w.tokens.ownAdmin, 'save-silence', { ends_at: now + HOUR, reason: 'b' }),
    ]);
    expect(both.map((b) => b.code).sort()).toEqual([1000, 1001]);
  });
});
