import type { Alarm, AlarmRule } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
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
