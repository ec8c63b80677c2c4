import { TREND_SERIES, type Alarm, type AlarmRule } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { registerIpp, telemetry } from './helpers/device.ts';

/**
 * Issue 40, item 3: a rule on any numeric telemetry series (above, below, outside a band, rate of change), driven
 * through the real telemetry ingest path; the nine fixed kinds and biology keep working beside them.
 */
describe.each(dialects)('alarm rules on any telemetry series on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let notices: [string, string, number | null][];
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    notices = [];
    env.app.alarms.useNotifier({
      enqueue: async (_trx, alarm, reason) => void notices.push([alarm.rule_name, reason, alarm.value]),
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
  const open = async () => {
    const res = body(await call(env, w.tokens.user, 'GET', '/api/alarm/list'));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return res.data as Alarm[];
  };
  const report = async (key: string, sample: object, afterMs = 60_000) => {
    env.clock.advance(afterMs);
    expect((await telemetry(env, key, { at: env.clock.now, ...sample })).statusCode).toBe(200);
    await env.app.alarms.settled();
  };
  const reasons = () => notices.map(([name, reason]) => `${name}:${reason}`);

  it('raises on a board voltage below its limit and clears at its clear level, with the series on the alarm', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const saved = await rule({
      name: 'Carrier volts',
      kind: 'series',
      series: 'cb_voltage_v',
      comparison: 'below',
      threshold: 11.5,
      clear_threshold: 11.8,
    });
    expect(saved).toMatchObject({ series: 'cb_voltage_v', comparison: 'below', threshold_low: null, severity: 'minor' });
    for (const volts of [12, 11.4, 11.6, 11.45, 11.7]) await report(a1.key, { cb_voltage_v: volts });
    expect(reasons()).toEqual(['Carrier volts:raised']);
    const [alarm] = await open();
    expect(alarm).toMatchObject({ kind: 'series', series: 'cb_voltage_v', comparison: 'below', threshold: 11.5, value: 11.7 });
    await report(a1.key, { cb_voltage_v: 11.9 });
    expect(reasons()).toEqual(['Carrier volts:raised', 'Carrier volts:cleared']);
  });

  it('raises when a series leaves its band on either side, and only once while it stays out', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({
      name: 'Duty',
      kind: 'series',
      series: 'uvc_illuminator_duty_pct',
      comparison: 'outside',
      threshold_low: 20,
      threshold: 80,
    });
    await report(a1.key, { uvc_illuminator_duty_pct: 50 });
    await report(a1.key, { uvc_illuminator_duty_pct: 85 });
    await report(a1.key, { uvc_illuminator_duty_pct: 10 });
    expect(reasons()).toEqual(['Duty:raised']);
    await report(a1.key, { uvc_illuminator_duty_pct: 20 });
    await report(a1.key, { uvc_illuminator_duty_pct: 15 });
    expect(reasons()).toEqual(['Duty:raised', 'Duty:cleared', 'Duty:raised']);
    expect((await open())[0]).toMatchObject({ comparison: 'outside', threshold_low: 20, threshold: 80, value: 15 });
  });

  it('raises on a change faster than the limit within the window, either way, against the sample at the window’s start', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Board heat', kind: 'series', series: 'lp_temperature_c', comparison: 'rate', threshold: 5, minutes: 10 });
    // Two degrees every five minutes: four within ten minutes, under the limit.
    for (const c of [20, 22, 24, 26]) await report(a1.key, { lp_temperature_c: c }, 5 * 60_000);
    expect(notices).toEqual([]);
    // Then three degrees in five minutes: 26 → 29 against 24 ten minutes ago is a change of 5… not more than 5.
    await report(a1.key, { lp_temperature_c: 29 }, 5 * 60_000);
    expect(notices).toEqual([]);
    await report(a1.key, { lp_temperature_c: 32 }, 5 * 60_000);
    expect(notices).toEqual([['Board heat', 'raised', 6]]);
    // Steady again: the change over the window falls back under the limit and the alarm clears.
    await report(a1.key, { lp_temperature_c: 32 }, 5 * 60_000);
    await report(a1.key, { lp_temperature_c: 32 }, 5 * 60_000);
    expect(reasons()).toEqual(['Board heat:raised', 'Board heat:cleared']);
    // A fall counts as much as a rise.
    await report(a1.key, { lp_temperature_c: 25 }, 5 * 60_000);
    expect(notices.at(-1)).toEqual(['Board heat', 'raised', -7]);
  });

  it('shows no rate without a sample old enough to compare, and applies the rule’s no-data action to a silent series', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Rate', kind: 'series', series: 'cb_current_a', comparison: 'rate', threshold: 0.5, minutes: 10 });
    await rule({ name: 'GPU', kind: 'series', series: 'gpu_temp_c', comparison: 'above', threshold: 70, no_data: 'raise' });
    // The first samples have nothing ten minutes before them to compare with; the GPU series is not sent at all.
    await report(a1.key, { cb_current_a: 0.1 });
    await report(a1.key, { cb_current_a: 2 }, 60_000);
    expect(reasons()).toEqual(['GPU:raised']);
    expect((await open()).find((a) => a.rule_name === 'GPU')).toMatchObject({ value: null });
    await report(a1.key, { cb_current_a: 2, gpu_temp_c: 50 });
    expect(reasons()).toEqual(['GPU:raised', 'GPU:cleared']);
  });

  it('keeps the fixed kinds working beside series rules on the same sample', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Leak', kind: 'humidity_high', threshold: 80 });
    await rule({ name: 'Humid series', kind: 'series', series: 'humidity_pct', comparison: 'above', threshold: 80 });
    await report(a1.key, { humidity_pct: 90 });
    expect(reasons().sort()).toEqual(['Humid series:raised', 'Leak:raised']);
  });

  it('refuses a series rule without its series, comparison, band floor or window, in the user’s language', async () => {
    const fields = async (rule: object, lang = 'en') => {
      const res = await saveRule(rule, lang);
      expect(res.code, JSON.stringify(res)).toBe(1002);
      return res;
    };
    expect((await fields({ kind: 'series', comparison: 'above', threshold: 1 })).msg).toMatch(/series.*required/i);
    expect((await fields({ kind: 'series', series: 'cb_voltage_v', threshold: 1 })).msg).toMatch(/comparison.*required/i);
    expect((await fields({ kind: 'series', series: 'cb_voltage_v', comparison: 'outside', threshold: 1 })).msg).toMatch(
      /threshold_low.*required/i,
    );
    const band = await fields(
      { kind: 'series', series: 'cb_voltage_v', comparison: 'outside', threshold: 10, threshold_low: 12 },
      'zh',
    );
    expect(band.msg).toContain('必须低于上限');
    expect((await fields({ kind: 'series', series: 'cb_voltage_v', comparison: 'rate', threshold: 1 })).msg).toMatch(
      /minutes.*required/i,
    );
    expect((await fields({ kind: 'series', series: 'cb_voltage_v', comparison: 'rate', threshold: 0, minutes: 5 })).msg).toMatch(
      /above 0/,
    );
    // A clear level only where the limit has a direction.
    const clear = {
      kind: 'series',
      series: 'cb_voltage_v',
      comparison: 'outside',
      threshold: 12,
      threshold_low: 10,
      clear_threshold: 11,
    };
    expect((await fields(clear)).msg).toMatch(/clear_threshold/);
    expect((await fields({ kind: 'series', series: 'wiper_state', comparison: 'above', threshold: 1 })).msg).toMatch(/series/);
    expect((await call(env, w.tokens.user, 'GET', '/api/alarm/rules')).json().data).toEqual([]);
  });

  it('stores only what the kind uses: a fixed kind keeps no series, a non-rate series rule no window', async () => {
    const fixed = await rule({ kind: 'temperature_high', threshold: 30, series: 'cb_voltage_v', comparison: 'below' });
    expect(fixed).toMatchObject({ series: null, comparison: null, threshold_low: null });
    const above = await rule({
      kind: 'series',
      series: 'ram_mb',
      comparison: 'above',
      threshold: 900,
      minutes: 10,
      threshold_low: 3,
    });
    expect(above).toMatchObject({ minutes: null, threshold_low: null });
    // Every series the contract lists is accepted.
    for (const series of TREND_SERIES) await rule({ name: series, kind: 'series', series, comparison: 'above', threshold: 1 });
  });

  it('evaluates two stations reporting at once, each against its own samples', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    await rule({ name: 'RAM', kind: 'series', series: 'ram_mb', comparison: 'rate', threshold: 100, minutes: 5 });
    for (const [m1, m2] of [
      [500, 500],
      [520, 900],
    ]) {
      env.clock.advance(5 * 60_000);
      const at = env.clock.now;
      const answers = await Promise.all([telemetry(env, a1.key, { at, ram_mb: m1 }), telemetry(env, a2.key, { at, ram_mb: m2 })]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      await env.app.alarms.settled();
    }
    expect((await open()).map((a) => [a.dev_id, a.value])).toEqual([['A2', 400]]);
  });
  it('answers one alarm by id to its team (a link in an e-mail), and nothing to another team', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Volts', kind: 'series', series: 'cb_voltage_v', comparison: 'below', threshold: 11 });
    await report(a1.key, { cb_voltage_v: 10 });
    await report(a1.key, { cb_voltage_v: 12 });
    const [alarm] = (body(await call(env, w.tokens.user, 'GET', '/api/alarm/list?state=all')).data as Alarm[]) ?? [];
    const byId = (token: string | undefined) => call(env, token, 'GET', `/api/alarm/list?state=all&id=${alarm!.id}`);
    expect(body(await byId(w.tokens.user))).toMatchObject({ code: 1000, count: 1, data: [{ id: alarm!.id, state: 'cleared' }] });
    expect(body(await byId(w.tokens.otherAdmin))).toMatchObject({ code: 1000, count: 0, data: [] });
  });
});
