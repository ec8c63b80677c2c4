import { DEFAULT_IPP_CONFIG, type IppConfigChange } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';
import { checkEcotaxa } from './helpers/ecotaxa-rules.ts';
import { unzip } from './helpers/zip.ts';

/** Issue 23, configuration audit: every configuration version kept, applied to several at once, in the EcoTaxa export. */
describe.each(dialects)('configuration history on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const history = async (token: string | undefined, id: number, query = '') => {
    const res = body(await call(env, token, 'GET', `/api/ipp/config-history?id=${id}${query}`));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    return { rows: res.data as IppConfigChange[], count: res.count as number };
  };
  const edit = (token: string | undefined, id: number, devId: string, config: object, over: object = {}) =>
    call(env, token, 'POST', '/api/ipp/save', {
      id,
      dev_id: devId,
      site_name: `Site ${devId}`,
      country: 'CN',
      longitude: 121.5,
      latitude: 36.1,
      group_id: w.teamA,
      serial_number: `SN-${devId}`,
      config: { ...DEFAULT_IPP_CONFIG, ...config },
      ...over,
    });
  const apply = (token: string | undefined, ids: number[], config: object, lang = 'en') =>
    call(env, token, 'POST', '/api/ipp/apply-config', { ids, config }, lang);
  const versions = (ippId: number) =>
    env.db.kysely
      .selectFrom('ipp_config_history')
      .select(['version', 'config'])
      .where('ipp_id', '=', ippId)
      .orderBy('version')
      .execute();

  it('keeps every change: who, when, old → new, and when the device applied it; other edits make no version', async () => {
    const registeredAt = env.clock.now;
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    env.clock.advance(60_000);
    const changedAt = env.clock.now;
    expect(body(await edit(w.tokens.ownAdmin, a1.id, 'A1', { exposure_us: 100, frame_rate: 5 })).code).toBe(1000);
    env.clock.advance(60_000);
    // A new name is not a configuration change.
    expect(body(await edit(w.tokens.ownAdmin, a1.id, 'A1', { exposure_us: 100, frame_rate: 5 }, { site_name: 'X' })).code).toBe(
      1000,
    );
    let h = await history(w.tokens.user, a1.id);
    expect(h.count).toBe(2);
    expect(h.rows.map((r) => [r.version, r.source, r.changed_by_name, r.changed_at, r.state, r.applied_at])).toEqual([
      [2, 'edit', 'admin_a', changedAt, 'pending', null],
      [1, 'register', 'admin_a', registeredAt, 'superseded', null],
    ]);
    expect(h.rows[0]!.changes).toEqual([
      { key: 'exposure_us', from: 80, to: 100 },
      { key: 'frame_rate', from: 3, to: 5 },
    ]);
    // The first version lists every setting, from nothing.
    expect(h.rows[1]!.changes).toHaveLength(Object.keys(DEFAULT_IPP_CONFIG).length);
    expect(h.rows[1]!.changes.every((c) => c.from === null)).toBe(true);

    // The device reports running the old configuration: still pending; then the new one: applied, dated by the report.
    const sentAt = env.clock.now - 5_000;
    expect((await telemetry(env, a1.key, { at: sentAt, applied_config: DEFAULT_IPP_CONFIG })).statusCode).toBe(200);
    expect((await history(w.tokens.user, a1.id)).rows[0]!.state).toBe('pending');
    const appliedAt = env.clock.now;
    const applied = { ...DEFAULT_IPP_CONFIG, exposure_us: 100, frame_rate: 5 };
    expect((await telemetry(env, a1.key, { at: appliedAt, applied_config: applied })).statusCode).toBe(200);
    env.clock.advance(60_000);
    expect((await telemetry(env, a1.key, { at: env.clock.now, applied_config: applied })).statusCode).toBe(200);
    h = await history(w.tokens.user, a1.id);
    expect(h.rows[0]).toMatchObject({ version: 2, state: 'applied', applied_at: appliedAt });

    // Paging, newest first; the last page's version still says what it changed.
    for (const exposure of [90, 95, 105]) {
      env.clock.advance(1000);
      await edit(w.tokens.ownAdmin, a1.id, 'A1', { exposure_us: exposure });
    }
    const page2 = await history(w.tokens.ownAdmin, a1.id, '&page=2&limit=2');
    expect(page2.count).toBe(5);
    expect(page2.rows.map((r) => r.version)).toEqual([3, 2]);
    expect(page2.rows[0]!.changes).toEqual([
      { key: 'exposure_us', from: 100, to: 90 },
      { key: 'frame_rate', from: 5, to: 3 },
    ]);
    expect(page2.rows[1]!.changes).toEqual([
      { key: 'exposure_us', from: 80, to: 100 },
      { key: 'frame_rate', from: 3, to: 5 },
    ]);
  });

  it("shows an instrument's history to its own team only, and bounds the page", async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    expect((await history(w.tokens.superadmin, a1.id)).count).toBe(1);
    const other = body(await call(env, w.tokens.otherAdmin, 'GET', `/api/ipp/config-history?id=${a1.id}`, undefined, 'zh'));
    expect(other).toMatchObject({ code: 1002, msg: expect.stringContaining('仪器不存在') });
    expect(body(await call(env, undefined, 'GET', `/api/ipp/config-history?id=${a1.id}`)).code).toBe(1010);
    for (const bad of ['', '&limit=101', '&page=0'])
      expect(body(await call(env, w.tokens.user, 'GET', `/api/ipp/config-history?id=${bad ? a1.id : 'x'}${bad}`)).code).toBe(
        1002,
      );
  });

  it('applies some settings to several instruments in one step, each its own version, tracked pending → applied', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2', { config: { ...DEFAULT_IPP_CONFIG, gain: 4 } });
    const a3 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A3', { config: { ...DEFAULT_IPP_CONFIG, wiper_strokes: 3 } });
    for (const ipp of [a1, a2, a3])
      await telemetry(env, ipp.key, { at: env.clock.now - 1000, applied_config: ipp === a1 ? DEFAULT_IPP_CONFIG : undefined });
    env.clock.advance(1000);
    const res = body(await apply(w.tokens.ownAdmin, [a3.id, a1.id, a2.id, a1.id], { wiper_strokes: 3, gain: 4 }));
    expect(res.code, JSON.stringify(res)).toBe(1000);
    const rows = (res.data as { rows: { id: number; changed: boolean; config_version: number; pending: string[] }[] }).rows;
    // In id order, each once; A1 reported its configuration, so its two new settings are pending.
    expect(rows.map((r) => [r.id, r.changed, r.config_version, r.pending])).toEqual([
      [a1.id, true, 2, ['gain', 'wiper_strokes']],
      [a2.id, true, 2, []],
      [a3.id, true, 2, []],
    ]);
    // Each keeps its other settings.
    const one = body(await call(env, w.tokens.user, 'POST', '/api/site/ipp-one', { id: a2.id })).data as { config: object };
    expect(one.config).toEqual({ ...DEFAULT_IPP_CONFIG, gain: 4, wiper_strokes: 3 });
    const h = await history(w.tokens.user, a2.id);
    expect(h.rows[0]).toMatchObject({
      source: 'bulk',
      changed_by_name: 'admin_a',
      changes: [{ key: 'wiper_strokes', from: 2, to: 3 }],
    });
    // The same settings again change nothing.
    const again = body(await apply(w.tokens.ownAdmin, [a1.id, a2.id], { wiper_strokes: 3, gain: 4 })).data as typeof res.data;
    expect((again as { rows: { changed: boolean; config_version: number }[] }).rows).toEqual([
      expect.objectContaining({ changed: false, config_version: 2 }),
      expect.objectContaining({ changed: false, config_version: 2 }),
    ]);
    // A1 applies it: its history says so.
    await telemetry(env, a1.key, { at: env.clock.now, applied_config: { ...DEFAULT_IPP_CONFIG, gain: 4, wiper_strokes: 3 } });
    expect((await history(w.tokens.user, a1.id)).rows[0]).toMatchObject({
      version: 2,
      state: 'applied',
      applied_at: env.clock.now,
    });
  });

  it('refuses the whole call when one instrument is not the caller’s, a plain user, or no settings; nothing changes', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    expect(body(await apply(w.tokens.ownAdmin, [a1.id, b1.id], { gain: 9 }, 'zh'))).toMatchObject({
      code: 1002,
      model: { field: 'ids' },
      msg: expect.stringContaining('仪器不存在'),
    });
    expect(body(await apply(w.tokens.ownAdmin, [a1.id, 999_999], { gain: 9 })).code).toBe(1002);
    expect(body(await apply(w.tokens.user, [a1.id], { gain: 9 })).code).toBe(1011);
    expect(body(await apply(undefined, [a1.id], { gain: 9 })).code).toBe(1010);
    expect(body(await apply(w.tokens.ownAdmin, [a1.id], {}, 'zh'))).toMatchObject({
      code: 1002,
      msg: expect.stringContaining('至少选择一项设置'),
    });
    expect(body(await apply(w.tokens.ownAdmin, [a1.id], { gain: 99 })).code).toBe(1002);
    expect(body(await apply(w.tokens.ownAdmin, [a1.id], { nonsense: 1 })).code).toBe(1002);
    expect(body(await apply(w.tokens.ownAdmin, [], { gain: 1 })).code).toBe(1002);
    expect((await versions(a1.id)).map((v) => v.version)).toEqual([1]);
    expect((await versions(b1.id)).map((v) => v.version)).toEqual([1]);
    // The superadmin may apply across teams.
    expect(body(await apply(w.tokens.superadmin, [a1.id, b1.id], { gain: 9 })).code).toBe(1000);
    expect((await versions(b1.id)).map((v) => v.version)).toEqual([1, 2]);
  });

  it('two callers changing the same instruments at once: every change its own version, none lost', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2');
    const results = await Promise.all([
      apply(w.tokens.ownAdmin, [a1.id, a2.id], { gain: 5 }),
      apply(w.tokens.superadmin, [a2.id, a1.id], { exposure_us: 110 }),
      edit(w.tokens.ownAdmin, a1.id, 'A1', { wiper_strokes: 4 }),
      edit(w.tokens.superadmin, a1.id, 'A1', { wiper_strokes: 5 }),
    ]);
    for (const r of results) expect(body(r).code, r.body).toBe(1000);
    for (const ipp of [a1, a2]) {
      const stored = await versions(ipp.id);
      // Contiguous versions, the newest the instrument's own.
      expect(stored.map((v) => v.version)).toEqual(stored.map((_, i) => i + 1));
      const row = await env.db.kysely
        .selectFrom('ipps')
        .select(['config', 'config_version'])
        .where('id', '=', ipp.id)
        .executeTakeFirstOrThrow();
      expect(row.config_version).toBe(stored.length);
      expect(JSON.parse(row.config)).toEqual(JSON.parse(stored.at(-1)!.config));
    }
    // Two readers of one history at once see the same versions.
    const [h1, h2] = await Promise.all([history(w.tokens.user, a1.id), history(w.tokens.ownAdmin, a1.id)]);
    expect(h1).toEqual(h2);
    expect(h1.rows.map((r) => r.version)).toEqual((await versions(a1.id)).map((v) => v.version).reverse());
    // A2 got both partial changes, whichever came first.
    expect((await versions(a2.id)).length).toBe(3);
    const a2Config = JSON.parse((await versions(a2.id)).at(-1)!.config) as Record<string, number>;
    expect([a2Config.gain, a2Config.exposure_us]).toEqual([5, 110]);
  });

  it('writes the settings in force at capture as the EcoTaxa acquisition: one per station, day and version', async () => {
    const registered = env.clock.now;
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    // The device confirms version 1 a minute later; version 2 is sent ten minutes on and confirmed 7 s after.
    env.clock.advance(60_000);
    await telemetry(env, a1.key, { at: env.clock.now, applied_config: DEFAULT_IPP_CONFIG });
    env.clock.advance(600_000);
    const sent = env.clock.now;
    expect(body(await edit(w.tokens.ownAdmin, a1.id, 'A1', { exposure_us: 120 })).code).toBe(1000);
    env.clock.advance(7_000);
    await telemetry(env, a1.key, { at: env.clock.now, applied_config: { ...DEFAULT_IPP_CONFIG, exposure_us: 120 } });
    env.clock.advance(60_000);
    const captures = {
      beforeHistory: registered - 3_600_000,
      sentUnconfirmed: registered + 30_000,
      v1: registered + 120_000,
      sentNotYetApplied: sent + 3_000,
      v2: sent + 10_000,
    };
    const ids: Record<string, number> = {};
    let seed = 700;
    for (const [name, at] of Object.entries(captures)) {
      const res = body(await uploadRoi(env, a1.key, { captured_at: at, label_index: 1, size_px: 50 }, await pngOf(seed++)));
      ids[name] = (res.data as { roi_id: number }).roi_id;
    }
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/roi/export',
      headers: { 'x-token': w.tokens.user! },
      payload: { format: 'ecotaxa', roi_ids: Object.values(ids) },
    });
    expect(res.statusCode).toBe(200);
    const check = checkEcotaxa(await unzip(res.rawPayload));
    expect(check.errors).toEqual([]);
    expect(check.silent).toEqual([]);
    const row = (name: string) => check.rows.find((r) => r.object_id === `A1_${ids[name]}`)!;
    const acq = (name: string) => {
      const r = row(name);
      return [r.acq_id, r.acq_config_version, r.object_config_state, r.acq_exposure_us, r.acq_frame_rate];
    };
    expect(acq('beforeHistory')).toEqual(['A1_20261122', '', '', '', '']);
    expect(acq('sentUnconfirmed')).toEqual(['A1_20261122_v1', '1', 'sent', '80', '3']);
    expect(acq('v1')).toEqual(['A1_20261122_v1', '1', 'applied', '80', '3']);
    expect(acq('sentNotYetApplied')).toEqual(['A1_20261122_v1', '1', 'applied', '80', '3']);
    expect(acq('v2')).toEqual(['A1_20261122_v2', '2', 'applied', '120', '3']);
  });
});
