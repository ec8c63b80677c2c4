import type { Alarm, AlarmRule, LiveEvent } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

/** Issue 23, alarms: rules on synthetic telemetry and image streams raise, do not repeat, are acknowledged and clear. */
describe.each(dialects)('alarms on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const saveRule = async (token: string | undefined, rule: object, lang = 'en') =>
    body(await call(env, token, 'POST', '/api/alarm/save-rule', rule, lang));
  const rule = async (over: object) => {
    const res = await saveRule(w.tokens.ownAdmin, { name: 'rule', ...over });
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return res.data as AlarmRule;
  };
  const alarms = async (token: string | undefined, query = '') => {
    const res = body(await call(env, token, 'GET', `/api/alarm/list${query}`));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return { rows: res.data as Alarm[], count: res.count as number };
  };
  const summary = async (token: string | undefined) => body(await call(env, token, 'GET', '/api/alarm/summary')).data;
  /** One sample a second later than the last (a sample at a time already stored changes nothing). */
  const report = async (key: string, sample: object) => {
    env.clock.advance(1000);
    expect((await telemetry(env, key, { at: env.clock.now, ...sample })).statusCode).toBe(200);
    await env.app.alarms.settled();
  };
  const ack = (token: string | undefined, id: number, note = '', lang = 'en') =>
    call(env, token, 'POST', '/api/alarm/acknowledge', { id, note }, lang);

  it('raises one alarm while humidity stays high, is acknowledged with a note, and clears when it falls', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const leak = await rule({ name: 'Leak', kind: 'humidity_high', threshold: 80 });
    await report(a1.key, { humidity_pct: 60 });
    expect((await alarms(w.tokens.user)).count).toBe(0);

    await report(a1.key, { humidity_pct: 85 });
    const raisedAt = env.clock.now;
    env.clock.advance(60_000);
    await report(a1.key, { humidity_pct: 91 });
    await env.app.alarms.checkAll();
    let open = await alarms(w.tokens.user);
    expect(open.count).toBe(1);
    expect(open.rows[0]).toMatchObject({
      rule_id: leak.id,
      rule_name: 'Leak',
      kind: 'humidity_high',
      threshold: 80,
      dev_id: 'A1',
      state: 'active',
      value: 91,
      raised_at: raisedAt,
      last_seen_at: env.clock.now,
    });
    expect(await summary(w.tokens.user)).toMatchObject({ active: 1, acknowledged: 0, pending: 0 });

    // A plain user of the team acknowledges it; it stays open (the leak is still there) and is not raised again.
    expect(body(await ack(w.tokens.user, open.rows[0]!.id, 'diver sent')).code).toBe(1000);
    await report(a1.key, { humidity_pct: 92 });
    open = await alarms(w.tokens.user);
    expect(open.rows).toHaveLength(1);
    expect(open.rows[0]).toMatchObject({ state: 'acknowledged', acknowledged_by_name: 'user_a', ack_note: 'diver sent' });
    expect(await summary(w.tokens.user)).toMatchObject({ active: 0, acknowledged: 1, pending: 0 });

    env.clock.advance(60_000);
    await report(a1.key, { humidity_pct: 50 });
    expect((await alarms(w.tokens.user)).count).toBe(0);
    const all = await alarms(w.tokens.user, '?state=all');
    expect(all.rows[0]).toMatchObject({ state: 'cleared', cleared_at: env.clock.now, ack_note: 'diver sent' });

    // A new rise is a new alarm.
    await report(a1.key, { humidity_pct: 95 });
    expect((await alarms(w.tokens.user, '?state=all')).count).toBe(2);
    expect((await alarms(w.tokens.user, '?state=active')).count).toBe(1);
  });

  it('raises the offline alarm from silence by the periodic check, and clears it when the station reports again', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Offline 15', kind: 'offline', minutes: 15 });
    await report(a1.key, { temperature_c: 10 });
    const lastSeen = env.clock.now;
    // Offline after the system's 10 minutes; the rule waits for 15.
    env.clock.advance(12 * 60_000);
    await env.app.alarms.checkAll();
    expect((await alarms(w.tokens.user)).count).toBe(0);
    env.clock.advance(4 * 60_000);
    await env.app.alarms.checkAll();
    const open = await alarms(w.tokens.user);
    expect(open.rows).toHaveLength(1);
    expect(open.rows[0]).toMatchObject({ kind: 'offline', value: Math.floor((env.clock.now - lastSeen) / 60_000) });
    await env.app.alarms.checkAll();
    expect((await alarms(w.tokens.user)).count).toBe(1);

    await report(a1.key, { temperature_c: 10 });
    expect((await alarms(w.tokens.user)).count).toBe(0);
  });

  it('raises the offline alarm at once when the device says it goes offline and the rule allows 0 minutes', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Offline now', kind: 'offline', minutes: 0 });
    await report(a1.key, { temperature_c: 10 });
    env.clock.advance(1000);
    await env.app.devices.applyStatus({ id: a1.id, dev_id: 'A1', group_id: w.teamA }, { state: 'offline' });
    await env.app.alarms.settled();
    expect((await alarms(w.tokens.user)).rows.map((a) => a.kind)).toEqual(['offline']);
  });

  it('watches storage, temperature, the wiper, UV-C while sampling and images, each only while the station is online', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Storage', kind: 'storage_low', threshold: 5 });
    await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await rule({ name: 'Wiper', kind: 'wiper_fault' });
    await rule({ name: 'UV-C', kind: 'uvc_off_sampling' });
    await rule({ name: 'Images', kind: 'no_images', minutes: 30 });
    const uploaded = await uploadRoi(env, a1.key, { captured_at: env.clock.now, label_index: 1, size_px: 24 }, await pngOf(1));
    expect(uploaded.statusCode).toBe(200);
    await report(a1.key, {
      storage_gb: 3,
      temperature_c: 45,
      wiper_state: 'fault',
      volume_5min_ml: 120,
      uvc_illuminator_duty_pct: 0,
    });
    expect((await alarms(w.tokens.user)).rows.map((a) => a.kind).sort()).toEqual([
      'storage_low',
      'temperature_high',
      'uvc_off_sampling',
      'wiper_fault',
    ]);
    // 31 minutes without images while reporting (the user looks in between: sessions end after 30 idle minutes).
    const keepUp = { storage_gb: 3, temperature_c: 45, wiper_state: 'fault', volume_5min_ml: 120, uvc_illuminator_duty_pct: 0 };
    for (const minutes of [9, 9]) {
      env.clock.advance(minutes * 60_000);
      await report(a1.key, keepUp);
    }
    env.clock.advance(2 * 60_000);
    expect((await alarms(w.tokens.user)).count).toBe(4);
    env.clock.advance(7 * 60_000);
    await report(a1.key, keepUp);
    env.clock.advance(4 * 60_000 - 4000);
    await report(a1.key, { storage_gb: 50, temperature_c: 20, wiper_state: 'idle', volume_5min_ml: 0 });
    expect((await alarms(w.tokens.user)).rows.map((a) => [a.kind, a.value])).toEqual([['no_images', 31]]);
    // Offline: a reading of an offline station raises nothing, and its silence ends no alarm (issue 37).
    env.clock.advance(11 * 60_000);
    await env.app.alarms.checkAll();
    expect((await alarms(w.tokens.user)).rows.map((a) => a.kind)).toEqual(['no_images']);
    expect((await alarms(w.tokens.user, '?state=cleared')).count).toBe(4);
  });

  it('keeps humidity, storage and temperature alarms open while the station is silent; a reading clears them (issue 37)', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Leak', kind: 'humidity_high', threshold: 80 });
    await rule({ name: 'Storage', kind: 'storage_low', threshold: 5 });
    await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await report(a1.key, { humidity_pct: 90, storage_gb: 3, temperature_c: 45 });
    const open = async () =>
      await env.db.kysely
        .selectFrom('alarms')
        .select(['kind', 'state'])
        .where('cleared_at', 'is', null)
        .orderBy('kind')
        .execute();
    expect(await open()).toEqual([
      { kind: 'humidity_high', state: 'active' },
      { kind: 'storage_low', state: 'active' },
      { kind: 'temperature_high', state: 'active' },
    ]);
    // Silent past the system's 10 offline minutes, checked again and again: nothing shows the leak ended.
    for (let i = 0; i < 4; i++) {
      env.clock.advance(6 * 60_000);
      await env.app.alarms.checkAll();
    }
    expect((await open()).map((a) => a.kind)).toEqual(['humidity_high', 'storage_low', 'temperature_high']);
    // So does a device that says it goes offline.
    await env.app.devices.applyStatus({ id: a1.id, dev_id: 'A1', group_id: w.teamA }, { state: 'offline' });
    await env.app.alarms.settled();
    await env.app.alarms.checkAll();
    expect(await open()).toHaveLength(3);
    // Back, with a reading that shows the leak still there and the rest ended: only the leak stays open.
    await report(a1.key, { humidity_pct: 88, storage_gb: 40, temperature_c: 20 });
    expect(await open()).toEqual([{ kind: 'humidity_high', state: 'active' }]);
    // A reading without humidity says nothing about the leak either.
    await report(a1.key, { temperature_c: 21 });
    expect(await open()).toEqual([{ kind: 'humidity_high', state: 'active' }]);
    await report(a1.key, { humidity_pct: 50 });
    expect(await open()).toEqual([]);
    expect((await env.db.kysely.selectFrom('alarms').select('id').execute()).length).toBe(3);
  });

  it('counts "no images" silence only while the station is online: a station back from an outage raises nothing at once (issue 37)', async () => {
    const notices: string[] = [];
    env.app.alarms.useNotifier({ enqueue: async (_trx, alarm, reason) => void notices.push(`${alarm.kind}:${reason}`) });
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Images', kind: 'no_images', minutes: 2 });
    const kinds = async () =>
      await env.db.kysely.selectFrom('alarms').select(['kind', 'state', 'value']).where('cleared_at', 'is', null).execute();
    let seed = 100;
    const image = async () => {
      expect(
        (await uploadRoi(env, a1.key, { captured_at: env.clock.now, label_index: 1, size_px: 24 }, await pngOf(++seed)))
          .statusCode,
      ).toBe(200);
      await env.app.alarms.settled();
    };
    await report(a1.key, { temperature_c: 10 });
    await image();
    await report(a1.key, { temperature_c: 10 });
    // Offline for 20 minutes (over the system's 10): the periodic check sees an offline station, raises nothing.
    env.clock.advance(20 * 60_000);
    await env.app.alarms.checkAll();
    expect(await kinds()).toEqual([]);
    // Back: its first reports, seconds apart, raise nothing (it raised at the first and cleared at the next).
    await report(a1.key, { temperature_c: 10 });
    await env.app.alarms.checkAll();
    await report(a1.key, { temperature_c: 10 });
    env.clock.advance(60_000);
    await report(a1.key, { temperature_c: 10 });
    expect(await kinds()).toEqual([]);
    expect(notices).toEqual([]);
    // Online and still no image for 2 minutes since it came back: now it is silence.
    env.clock.advance(60_000);
    await report(a1.key, { temperature_c: 10 });
    expect(await kinds()).toEqual([{ kind: 'no_images', state: 'active', value: 2 }]);
    expect(notices).toEqual(['no_images:raised']);
    // An outage with the alarm open keeps it (no image came); back for less than the window, it stays, not raised again.
    env.clock.advance(20 * 60_000);
    await env.app.alarms.checkAll();
    await report(a1.key, { temperature_c: 10 });
    expect((await kinds()).map((a) => a.kind)).toEqual(['no_images']);
    expect(notices).toEqual(['no_images:raised']);
    // An image ends it.
    await image();
    expect(await kinds()).toEqual([]);
    // A device that says it went offline and then online again starts a new run too.
    await report(a1.key, { temperature_c: 10 });
    env.clock.advance(3 * 60_000);
    await env.app.devices.applyStatus({ id: a1.id, dev_id: 'A1', group_id: w.teamA }, { state: 'offline' });
    env.clock.advance(1000);
    await env.app.devices.applyStatus({ id: a1.id, dev_id: 'A1', group_id: w.teamA }, { state: 'online' });
    await report(a1.key, { temperature_c: 10 });
    expect(await kinds()).toEqual([]);
  });

  it("raises when the wiper has not cleaned for more than N of the instrument's intervals, and clears at the next clean", async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Wiper stuck', kind: 'wiper_no_clean', threshold: 2 });
    // The default interval is 30 minutes: 50 minutes is 1.7 intervals, 70 minutes 2.3.
    await report(a1.key, { wiper_last_clean_at: env.clock.now - 50 * 60_000 });
    expect((await alarms(w.tokens.user)).count).toBe(0);
    await report(a1.key, { wiper_last_clean_at: env.clock.now - 70 * 60_000 });
    expect((await alarms(w.tokens.user)).rows).toMatchObject([{ kind: 'wiper_no_clean', threshold: 2, value: 2.3 }]);
    await report(a1.key, { wiper_last_clean_at: env.clock.now - 5_000 });
    expect((await alarms(w.tokens.user)).count).toBe(0);
  });

  it('notifies once when raised and again after the rule interval while active, not while acknowledged', async () => {
    const notices: [string, string][] = [];
    env.app.alarms.useNotifier({
      enqueue: async (_trx, alarm, reason) => void notices.push([alarm.rule_name, reason]),
    });
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40, renotify_minutes: 10 });
    await report(a1.key, { temperature_c: 45 });
    env.clock.advance(5 * 60_000);
    await report(a1.key, { temperature_c: 46 });
    expect(notices).toEqual([['Hot', 'raised']]);
    env.clock.advance(5 * 60_000);
    await report(a1.key, { temperature_c: 46 });
    expect(notices).toEqual([
      ['Hot', 'raised'],
      ['Hot', 'again'],
    ]);
    // Two evaluations at once when the next notice is due (a report during the periodic check): one notice.
    env.clock.advance(9 * 60_000);
    await report(a1.key, { temperature_c: 46 });
    expect(notices).toHaveLength(2);
    env.clock.advance(61_000);
    await Promise.all([env.app.alarms.evaluateStation(a1.id), env.app.alarms.evaluateStation(a1.id)]);
    expect(notices).toHaveLength(3);
    const id = (await alarms(w.tokens.user)).rows[0]!.id;
    expect(body(await ack(w.tokens.ownAdmin, id)).code).toBe(1000);
    // The acknowledgement is a notice of its own (issue 40), and nothing is sent again while acknowledged.
    expect(notices.at(-1)).toEqual(['Hot', 'acknowledged']);
    env.clock.advance(20 * 60_000);
    await report(a1.key, { temperature_c: 46 });
    expect(notices).toHaveLength(4);
  });

  it('pushes an alarm event to the team only, and two evaluations at once raise one alarm', async () => {
    const seen: { group_id: number; event: LiveEvent }[] = [];
    env.app.events.subscribe((events) => seen.push(...events));
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    expect((await telemetry(env, a1.key, { at: env.clock.now, temperature_c: 45 })).statusCode).toBe(200);
    await Promise.all([env.app.alarms.evaluateStation(a1.id), env.app.alarms.evaluateStation(a1.id), env.app.alarms.settled()]);
    await env.app.alarms.settled();
    expect((await alarms(w.tokens.user, '?state=all')).count).toBe(1);
    env.app.events.flush();
    const alarmEvents = () => seen.filter((e) => e.event.type === 'alarm');
    await expect.poll(() => alarmEvents().length).toBeGreaterThan(0);
    expect(alarmEvents().every((e) => e.group_id === w.teamA && e.event.ipp_id === a1.id)).toBe(true);
  });

  it('keeps rules and alarms to their team: others see none, cannot acknowledge or change them; users cannot edit rules', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    const hot = await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await report(a1.key, { temperature_c: 45 });
    const id = (await alarms(w.tokens.user)).rows[0]!.id;

    expect((await alarms(w.tokens.otherAdmin)).count).toBe(0);
    expect(await summary(w.tokens.otherAdmin)).toEqual({
      active: 0,
      acknowledged: 0,
      pending: 0,
      by_severity: { critical: 0, major: 0, minor: 0, warning: 0 },
    });
    expect((await alarms(w.tokens.superadmin)).count).toBe(1);
    expect(body(await ack(w.tokens.otherAdmin, id))).toMatchObject({ code: 1002, msg: 'The alarm does not exist' });
    expect(body(await call(env, w.tokens.otherAdmin, 'GET', '/api/alarm/rules')).data).toEqual([]);
    expect(body(await call(env, w.tokens.otherAdmin, 'GET', `/api/alarm/rules?group_id=${w.teamA}`)).code).toBe(1011);
    expect(body(await call(env, w.tokens.superadmin, 'GET', `/api/alarm/rules?group_id=${w.teamA}`)).data).toHaveLength(1);
    expect(await saveRule(w.tokens.otherAdmin, { id: hot.id, name: 'Mine', kind: 'wiper_fault' })).toMatchObject({
      code: 1002,
    });
    expect(body(await call(env, w.tokens.otherAdmin, 'POST', '/api/alarm/remove-rule', { id: hot.id })).code).toBe(1002);
    // A rule may not watch another team's station.
    expect(await saveRule(w.tokens.ownAdmin, { name: 'x', kind: 'wiper_fault', ipp_id: b1.id })).toMatchObject({
      code: 1002,
      msg: expect.stringContaining('instrument'),
    });
    expect((await saveRule(w.tokens.user, { name: 'x', kind: 'wiper_fault' })).code).toBe(1011);
    expect((await saveRule(undefined, { name: 'x', kind: 'wiper_fault' })).code).toBe(1010);
    expect(body(await call(env, w.tokens.user, 'GET', '/api/alarm/rules')).data).toHaveLength(1);
  });

  it('biology: raises when a class passes its concentration over the window (from the rollups) and clears as the window moves on', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const copepod = await env.db.kysely
      .selectFrom('classes')
      .select(['id', 'name'])
      .where('label_index', '=', 1)
      .executeTakeFirstOrThrow();
    const bloom = await rule({ name: 'Bloom', kind: 'class_concentration', class_id: copepod.id, threshold: 2, minutes: 120 });
    expect(bloom).toMatchObject({ class_id: copepod.id, threshold: 2, minutes: 120 });
    // 2 L sampled.
    await report(a1.key, { volume_total_l: 10 });
    await report(a1.key, { volume_total_l: 12 });
    let seed = 0;
    const images = async (n: number, label: number) => {
      for (let i = 0; i < n; i++) {
        env.clock.advance(1000);
        const res = body(
          await uploadRoi(env, a1.key, { captured_at: env.clock.now, label_index: label, size_px: 900 }, await pngOf(++seed)),
        );
        expect(res.code, JSON.stringify(res)).toBe(1000);
      }
      await env.app.alarms.settled();
    };
    // 3 copepods and 4 of another class in 2 L: 1.5 copepods per litre, under the limit.
    await images(3, 1);
    await images(4, 2);
    expect((await alarms(w.tokens.user)).count).toBe(0);
    await images(2, 1);
    const open = await alarms(w.tokens.user);
    expect(open.rows).toHaveLength(1);
    expect(open.rows[0]).toMatchObject({
      kind: 'class_concentration',
      class_id: copepod.id,
      class_name: copepod.name,
      value: 2.5,
      state: 'active',
    });
    // More images raise no second alarm.
    await images(1, 1);
    expect((await alarms(w.tokens.user)).rows.map((a) => a.value)).toEqual([3]);
    // At the next hour's start the window still holds the bloom (its two whole hours before and the hour so far): the
    // alarm stays. Three hours later it holds none of it: the periodic check clears the alarm (read from the table:
    // the test sessions have expired by then).
    env.clock.advance(3_600_000 - (env.clock.now % 3_600_000));
    await env.app.alarms.checkAll();
    expect((await env.db.kysely.selectFrom('alarms').select('state').executeTakeFirstOrThrow()).state).toBe('active');
    env.clock.advance(3 * 3_600_000);
    await env.app.alarms.checkAll();
    const row = await env.db.kysely.selectFrom('alarms').select(['state', 'cleared_at', 'class_id']).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'cleared', class_id: copepod.id });
    expect(Number(row.cleared_at)).toBe(env.clock.now);
  });

  it("refuses a biology rule without a class, with a window under an hour, or on another team's class", async () => {
    const other = await env.db.kysely
      .insertInto('classes')
      .values({ name: '901 Team B only', label_index: 901, system: 0, group_id: w.teamB, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = { name: 'b', kind: 'class_concentration', threshold: 5, minutes: 60 };
    const noClass = await saveRule(w.tokens.ownAdmin, base, 'zh');
    expect(noClass).toMatchObject({ code: 1002, msg: expect.stringContaining('class_id') });
    const short = await saveRule(w.tokens.ownAdmin, { ...base, class_id: 1, minutes: 30 });
    expect(short).toMatchObject({ code: 1002, msg: expect.stringContaining('at least 60 minutes') });
    const foreign = await saveRule(w.tokens.ownAdmin, { ...base, class_id: other.id });
    expect(foreign).toMatchObject({ code: 1002, msg: expect.stringContaining('The class does not exist') });
    expect(await env.db.kysely.selectFrom('alarm_rules').selectAll().execute()).toEqual([]);
  });

  it('refuses a rule without its limit, in the user language, and stores nothing', async () => {
    const zh = await saveRule(w.tokens.ownAdmin, { name: 'x', kind: 'humidity_high' }, 'zh');
    expect(zh.code).toBe(1002);
    expect(zh.msg).toContain('threshold');
    expect(zh.msg).toContain('必填');
    const en = await saveRule(w.tokens.ownAdmin, { name: 'x', kind: 'offline' });
    expect(en).toMatchObject({ code: 1002 });
    expect(en.msg).toContain('minutes');
    // A superadmin naming a team that does not exist (the fuzzer's find: a foreign key failure answered 500).
    expect(await saveRule(w.tokens.superadmin, { group_id: 999_999, name: 'x', kind: 'wiper_fault' })).toMatchObject({
      code: 1002,
      msg: expect.stringContaining('The team does not exist'),
    });
    expect(
      body(await call(env, w.tokens.superadmin, 'POST', '/api/alarm/save-webhook', { group_id: 999_999, url: null })).code,
    ).toBe(1002);
    expect(await env.db.kysely.selectFrom('alarm_rules').selectAll().execute()).toEqual([]);
  });

  it('two people acknowledging at once: one succeeds, the other is told it is already acknowledged', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await report(a1.key, { temperature_c: 45 });
    const id = (await alarms(w.tokens.user)).rows[0]!.id;
    const answers = await Promise.all([ack(w.tokens.user, id, 'one'), ack(w.tokens.ownAdmin, id, 'two', 'zh')]);
    const codes = answers.map((a) => body(a).code).sort();
    expect(codes).toEqual([1000, 1001]);
    const refused = answers.map(body).find((a) => a.code === 1001)!;
    expect(refused.msg).toMatch(/already been acknowledged|已被确认/);
    expect((await alarms(w.tokens.user)).rows[0]!.state).toBe('acknowledged');
  });

  it('a changed rule starts over and a removed rule clears its alarms but keeps their history', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const hot = await rule({ name: 'Hot', kind: 'temperature_high', threshold: 40 });
    await report(a1.key, { temperature_c: 45 });
    expect((await alarms(w.tokens.user)).count).toBe(1);
    await rule({ id: hot.id, name: 'Hotter', kind: 'temperature_high', threshold: 50 });
    await env.app.alarms.settled();
    await report(a1.key, { temperature_c: 45 });
    expect((await alarms(w.tokens.user)).count).toBe(0);
    await report(a1.key, { temperature_c: 55 });
    expect((await alarms(w.tokens.user)).rows[0]!.rule_name).toBe('Hotter');
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/alarm/remove-rule', { id: hot.id })).code).toBe(1000);
    expect((await alarms(w.tokens.user)).count).toBe(0);
    const history = await alarms(w.tokens.user, '?state=all');
    expect(history.rows.map((a) => [a.rule_name, a.state, a.rule_id])).toEqual([
      ['Hotter', 'cleared', null],
      ['Hot', 'cleared', null],
    ]);
  });
});
