import { MAX_ALARM_EXPORT_ROWS } from '@ipp/contracts';
import { CSV_BOM, parseCsv } from '@ipp/contracts/csv';
import type { LightMyRequestResponse } from 'fastify';
import { sql, type Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmsTable } from '../src/db/schema.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { registerIpp } from './helpers/device.ts';
import { dialects } from './helpers/dialects.ts';

/** Issue 40: a team's alarm history as CSV (GET /api/alarm/export), on both databases. */
const FROM = Date.UTC(2026, 10, 1);
const TO = Date.UTC(2026, 11, 1);
const HOUR = 3_600_000;

const HEADER_EN = [
  'alarm_id',
  'severity',
  'state',
  'rule_name',
  'kind',
  'site_name',
  'dev_id',
  'time_zone',
  'raised_at_utc',
  'raised_at_local',
  'value',
  'threshold',
  'acknowledged_at_utc',
  'acknowledged_by',
  'ack_note',
  'cleared_at_utc',
  'cleared_by',
  'clear_reason',
  'silenced',
];

describe.each(dialects)('alarm-history export on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let a1: number;
  let a2: number;
  let b1: number;
  /** Team A's alarms in [FROM, TO), in the order the export must give them. */
  let inPeriod: number[];
  let teamB: number;

  const insert = async (values: Partial<Insertable<AlarmsTable>> & Pick<AlarmsTable, 'group_id' | 'ipp_id' | 'raised_at'>) => {
    const row = await env.db.kysely
      .insertInto('alarms')
      .values({
        rule_id: null,
        rule_name: 'Hot',
        kind: 'temperature_high',
        threshold: 40,
        severity: 'major',
        state: 'cleared',
        value: 45,
        last_seen_at: values.raised_at,
        cleared_at: values.raised_at + HOUR,
        ...values,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  const query = (q: Record<string, number | undefined>) =>
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
  const exportAs = (token: string | undefined, q: Record<string, number | undefined> = {}, lang = 'en') =>
    call(env, token, 'GET', `/api/alarm/export?${query({ from: FROM, to: TO, ...q })}`, undefined, lang);

  /** The file's records, after checking it is a CSV download with a byte-order mark. */
  const csvOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith(CSV_BOM)).toBe(true);
    return parseCsv(res.body);
  };
  const idsOf = (records: string[][]) => records.slice(1).map((r) => Number(r[0]));
  const cell = (records: string[][], id: number, column: string) =>
    records.find((r) => r[0] === String(id))![HEADER_EN.indexOf(column)];

  beforeAll(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    teamB = w.teamB;
    a1 = (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { site_name: 'Daya Bay, intake', time_zone: 'Asia/Shanghai' }))
      .id;
    // No zone of its own: its longitude's (121.5° E → Etc/GMT-8).
    a2 = (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2')).id;
    b1 = (await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1')).id;
    const A = { group_id: w.teamA };
    // Inserted out of order: the export orders by when each raised, then by id.
    const late = await insert({
      ...A,
      ipp_id: a2,
      raised_at: Date.UTC(2026, 10, 30, 23, 59, 59),
      state: 'active',
      cleared_at: null,
    });
    const sameTimeFirst = await insert({ ...A, ipp_id: a1, raised_at: Date.UTC(2026, 10, 10, 12), severity: 'minor' });
    const sameTimeSecond = await insert({ ...A, ipp_id: a2, raised_at: Date.UTC(2026, 10, 10, 12), kind: 'offline', value: 95 });
    const first = await insert({
      ...A,
      ipp_id: a1,
      raised_at: FROM,
      severity: 'critical',
      kind: 'humidity_high',
      threshold: 80,
      value: 82.5,
      rule_name: '=HYPERLINK("http://evil.example","open")',
      acknowledged_at: FROM + 10 * 60_000,
      acknowledged_by_name: 'li.wei',
      ack_note: 'diver, on the way',
      cleared_at: FROM + HOUR,
      cleared_by_name: 'admin_a',
      clear_reason: 'seal replaced\nand checked',
    });
    const pending = await insert({ ...A, ipp_id: a1, raised_at: Date.UTC(2026, 10, 20), state: 'pending', cleared_at: null });
    // Outside the period: at its end (exclusive), and a millisecond before its start.
    await insert({ ...A, ipp_id: a1, raised_at: TO });
    await insert({ ...A, ipp_id: a1, raised_at: FROM - 1 });
    // Another team's, in the period.
    await insert({ group_id: w.teamB, ipp_id: b1, raised_at: Date.UTC(2026, 10, 5), rule_name: 'Team B secret' });
    inPeriod = [first, sameTimeFirst, sameTimeSecond, pending, late];
  });
  afterAll(() => env.close());

  it("gives every alarm of the caller's team raised in [from, to), any state, oldest first, in UTC and the station's time", async () => {
    for (const token of [w.tokens.ownAdmin, w.tokens.user]) {
      const res = await exportAs(token);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="alarms-team${w.teamA}-2026-11-01-2026-12-01.csv"`);
      const records = csvOf(res);
      expect(records[0]).toEqual(HEADER_EN);
      expect(idsOf(records)).toEqual(inPeriod);
      expect(records.every((r) => r.length === HEADER_EN.length)).toBe(true);
    }
    const records = csvOf(await exportAs(w.tokens.user));
    const [first, sameTimeFirst, sameTimeSecond, pending, late] = inPeriod as [number, number, number, number, number];
    expect(records[1]).toEqual([
      String(first),
      'critical',
      'cleared',
      `'=HYPERLINK("http://evil.example","open")`,
      'humidity_high',
      'Daya Bay, intake',
      'A1',
      'Asia/Shanghai',
      '2026-11-01T00:00:00Z',
      '2026-11-01 08:00:00',
      '82.5',
      '80',
      '2026-11-01T00:10:00Z',
      'li.wei',
      'diver, on the way',
      '2026-11-01T01:00:00Z',
      'admin_a',
      'seal replaced\nand checked',
      'false',
    ]);
    expect(cell(records, sameTimeFirst, 'severity')).toBe('minor');
    expect(cell(records, sameTimeSecond, 'kind')).toBe('offline');
    expect(cell(records, sameTimeSecond, 'time_zone')).toBe('Etc/GMT-8');
    expect(cell(records, sameTimeSecond, 'raised_at_local')).toBe('2026-11-10 20:00:00');
    expect(cell(records, pending, 'state')).toBe('pending');
    expect(cell(records, late, 'state')).toBe('active');
    expect(cell(records, late, 'cleared_at_utc')).toBe('');
    // On the station's clock the last alarm raised on the next day.
    expect(cell(records, late, 'raised_at_local')).toBe('2026-12-01 07:59:59');
    expect(records.flat().join(' ')).not.toContain('Team B secret');
  });

  it('guards a formula in a cell: the spreadsheet shows it as text', async () => {
    const text = (await exportAs(w.tokens.ownAdmin)).body;
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""open"")"`);
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });

  it("writes the header in the caller's language, the values the same in both", async () => {
    const zh = csvOf(await exportAs(w.tokens.user, {}, 'zh'));
    expect(zh[0]).toEqual([
      '告警编号',
      '严重程度',
      '状态',
      '规则名称',
      '类型',
      '站点名称',
      '站点编号',
      '站点时区',
      '发生时间（UTC）',
      '发生时间（站点当地）',
      '读数',
      '阈值',
      '确认时间（UTC）',
      '确认人',
      '确认备注',
      '解除时间（UTC）',
      '解除人',
      '解除原因',
      '静默中',
    ]);
    const en = csvOf(await exportAs(w.tokens.user, {}, 'en'));
    expect(zh.slice(1)).toEqual(en.slice(1));
  });

  it('keeps to one station when asked, and moves with the period', async () => {
    const res = await exportAs(w.tokens.user, { ipp_id: a2 });
    expect(res.headers['content-disposition']).toBe('attachment; filename="alarms-A2-2026-11-01-2026-12-01.csv"');
    expect(idsOf(csvOf(res))).toEqual([inPeriod[2], inPeriod[4]]);
    // `from` is inclusive, `to` exclusive: the alarm raised at TO is the next period's, the one at FROM - 1 the last's.
    const next = idsOf(csvOf(await exportAs(w.tokens.user, { from: TO, to: TO + 1, ipp_id: a1 })));
    const before = idsOf(csvOf(await exportAs(w.tokens.user, { from: FROM - 1, to: FROM, ipp_id: a1 })));
    expect(next).toHaveLength(1);
    expect(before).toHaveLength(1);
    expect(next[0]).not.toBe(before[0]);
    expect([...next, ...before].some((id) => inPeriod.includes(id))).toBe(false);
    // Nothing raised in a period: the header alone.
    expect(csvOf(await exportAs(w.tokens.user, { from: FROM - 30 * 86_400_000, to: FROM - 1 }))).toEqual([HEADER_EN]);
  });

  it("refuses another team's station as an unknown one and never shows another team's alarms", async () => {
    const missing = body(await exportAs(w.tokens.otherAdmin, { ipp_id: 999_999 }));
    expect(missing).toMatchObject({ code: 1002, msg: 'The instrument does not exist', model: { field: 'ipp_id' } });
    for (const token of [w.tokens.otherAdmin, w.tokens.user])
      expect(body(await exportAs(token, { ipp_id: token === w.tokens.user ? b1 : a1 }))).toEqual(missing);
    const zh = body(await exportAs(w.tokens.otherAdmin, { ipp_id: a1 }, 'zh'));
    expect(zh).toMatchObject({ code: 1002, msg: '仪器不存在' });
    // Naming another team is refused outright.
    expect(body(await exportAs(w.tokens.user, { group_id: teamB })).code).toBe(1011);
    // Team B sees its own history only.
    const theirs = csvOf(await exportAs(w.tokens.otherAdmin));
    expect(theirs.slice(1).map((r) => r[3])).toEqual(['Team B secret']);
    expect(body(await exportAs(undefined)).code).toBe(1010);
  });

  it('lets the superadmin name the team, or a station (its team), but not a station of another team than named', async () => {
    const su = w.tokens.superadmin;
    expect(body(await exportAs(su))).toMatchObject({ code: 1002, model: { field: 'group_id' } });
    expect(idsOf(csvOf(await exportAs(su, { group_id: w.teamA })))).toEqual(inPeriod);
    expect(
      csvOf(await exportAs(su, { group_id: teamB }))
        .slice(1)
        .map((r) => r[3]),
    ).toEqual(['Team B secret']);
    expect(idsOf(csvOf(await exportAs(su, { ipp_id: a2 })))).toEqual([inPeriod[2], inPeriod[4]]);
    expect(body(await exportAs(su, { group_id: teamB, ipp_id: a1 }))).toMatchObject({
      code: 1002,
      msg: 'The instrument does not exist',
      model: { field: 'ipp_id' },
    });
    expect(body(await exportAs(su, { group_id: 999_999 }))).toMatchObject({ code: 1002, model: { field: 'group_id' } });
  });

  it('refuses a bad period in the envelope, in the caller’s language', async () => {
    const cases = [
      { q: { from: TO, to: TO }, en: /must be after the start/, zh: /必须晚于开始时间/ },
      { q: { from: TO, to: FROM }, en: /must be after the start/, zh: /必须晚于开始时间/ },
      { q: { from: FROM, to: FROM + 367 * 86_400_000 }, en: /at most 366 days/, zh: /最多 366 天/ },
    ];
    for (const c of cases) {
      const en = await exportAs(w.tokens.user, c.q, 'en');
      expect(en.headers['content-type']).toMatch(/application\/json/);
      expect(body(en)).toMatchObject({ code: 1002, msg: expect.stringMatching(c.en), model: { field: 'to' } });
      expect(body(await exportAs(w.tokens.user, c.q, 'zh'))).toMatchObject({ code: 1002, msg: expect.stringMatching(c.zh) });
    }
    expect(body(await exportAs(w.tokens.user, { from: undefined }))).toMatchObject({ code: 1002, model: { field: 'from' } });
    // 366 days exactly is allowed.
    expect(csvOf(await exportAs(w.tokens.user, { from: FROM, to: FROM + 366 * 86_400_000 })).length).toBeGreaterThan(1);
  });

  it('gives every caller exporting at the same time their own correct file', async () => {
    const [own, other, user, su] = await Promise.all([
      exportAs(w.tokens.ownAdmin),
      exportAs(w.tokens.otherAdmin),
      exportAs(w.tokens.user, { ipp_id: a2 }, 'zh'),
      exportAs(w.tokens.superadmin, { group_id: teamB }),
    ]);
    expect(idsOf(csvOf(own!))).toEqual(inPeriod);
    expect(
      csvOf(other!)
        .slice(1)
        .map((r) => r[3]),
    ).toEqual(['Team B secret']);
    const mine = csvOf(user!);
    expect(mine[0]![0]).toBe('告警编号');
    expect(idsOf(mine)).toEqual([inPeriod[2], inPeriod[4]]);
    expect(
      csvOf(su!)
        .slice(1)
        .map((r) => r[3]),
    ).toEqual(['Team B secret']);
  });

  it('bounds the exports one user runs at once: the rest are told busy, and each that ran is whole', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => exportAs(w.tokens.user)));
    const busy = answers.filter((a) => a.statusCode !== 200);
    expect(busy.length).toBeGreaterThan(0);
    for (const a of busy) expect(body(a)).toMatchObject({ code: 1003, msg: expect.stringMatching(/long-running requests/) });
    for (const a of answers.filter((x) => x.statusCode === 200)) expect(idsOf(csvOf(a))).toEqual(inPeriod);
    // Once they are answered, the same user may export again.
    expect(idsOf(csvOf(await exportAs(w.tokens.user)))).toEqual(inPeriod);
  });

  it(`holds at most ${MAX_ALARM_EXPORT_ROWS} alarms and asks for a shorter period beyond`, { timeout: 120_000 }, async () => {
    // A year before the others, on a station of its own: one alarm a minute, MAX_ALARM_EXPORT_ROWS of them.
    const ipp = (await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A9')).id;
    const start = Date.UTC(2025, 0, 1);
    await sql`
      with recursive n(i) as (select 0 union all select i + 1 from n where i < ${MAX_ALARM_EXPORT_ROWS - 1})
      insert into alarms (group_id, ipp_id, rule_name, kind, threshold, state, value, raised_at, last_seen_at, cleared_at)
      select ${w.teamA}, ${ipp}, 'Many', 'temperature_high', 40, 'cleared', 41, ${start} + cast(i as bigint) * 60000,
        ${start} + cast(i as bigint) * 60000, ${start} + cast(i as bigint) * 60000 + 30000
      from n`.execute(env.db.kysely);
    const period = { ipp_id: ipp, from: start, to: start + 300 * 86_400_000 };
    const full = csvOf(await exportAs(w.tokens.user, period));
    expect(full).toHaveLength(MAX_ALARM_EXPORT_ROWS + 1);
    const times = full.slice(1).map((r) => r[8]);
    expect(times[0]).toBe('2025-01-01T00:00:00Z');
    expect(times.at(-1)).toBe(new Date(start + (MAX_ALARM_EXPORT_ROWS - 1) * 60_000).toISOString().slice(0, 19) + 'Z');
    expect(new Set(full.slice(1).map((r) => r[0])).size).toBe(MAX_ALARM_EXPORT_ROWS);

    await insert({ group_id: w.teamA, ipp_id: ipp, raised_at: start + 200 * 86_400_000 });
    const en = await exportAs(w.tokens.user, period, 'en');
    expect(en.headers['content-type']).toMatch(/application\/json/);
    expect(body(en)).toMatchObject({
      code: 1002,
      msg: `The period holds ${MAX_ALARM_EXPORT_ROWS + 1} alarms and an export holds at most ${MAX_ALARM_EXPORT_ROWS}: export a shorter period at a time`,
      model: { field: 'to' },
    });
    expect(body(await exportAs(w.tokens.user, period, 'zh'))).toMatchObject({
      code: 1002,
      msg: `该时段有 ${MAX_ALARM_EXPORT_ROWS + 1} 条告警，一次导出最多 ${MAX_ALARM_EXPORT_ROWS} 条：请缩短时段分次导出`,
    });
    // A shorter period of the same station is fine.
    expect(csvOf(await exportAs(w.tokens.user, { ...period, to: start + 86_400_000 }))).toHaveLength(1441);
  });
});
