import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../src/security/password.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, uploadRoi } from './helpers/device.ts';

const form = (groupId: number, over: Record<string, unknown> = {}) => ({
  dev_id: '21005',
  site_name: 'Yellow Sea buoy',
  country: 'CN',
  longitude: 121.5,
  latitude: 36.1,
  group_id: groupId,
  serial_number: 'IPP-0001',
  config: DEFAULT_IPP_CONFIG,
  ...over,
});

describe.each(dialects)('instrument registry on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const save = (actor: keyof World['tokens'], payload: object, lang = 'en') =>
    call(env, w.tokens[actor], 'POST', '/api/ipp/save', payload, lang);
  const register = async (actor: keyof World['tokens'], payload: object) => {
    const res = body(await save(actor, payload));
    expect(res.code).toBe(1000);
    return res.data as { ipp: { id: number; dev_id: string }; device_key: string | null };
  };

  it('registers an instrument and answers its device key once, keeping only a hash', async () => {
    const created = await register('ownAdmin', form(w.teamA));
    expect(created.ipp).toMatchObject({
      dev_id: '21005',
      site_name: 'Yellow Sea buoy',
      country: 'CN',
      group_name: 'Team A',
      online: false,
      last_online_at: null,
      config: DEFAULT_IPP_CONFIG,
    });
    expect(created.device_key).toMatch(/^ippk_[\w-]{43}$/);
    const row = await env.db.kysely.selectFrom('ipps').select('device_key_hash').executeTakeFirstOrThrow();
    expect(row.device_key_hash).toBe(hashToken(created.device_key ?? ''));
    const edited = body(
      await save(
        'ownAdmin',
        form(w.teamA, { id: created.ipp.id, site_name: 'Renamed', config: { ...DEFAULT_IPP_CONFIG, frame_rate: 5.5 } }),
      ),
    );
    expect(edited.data).toMatchObject({ device_key: null, ipp: { site_name: 'Renamed', config: { frame_rate: 5.5 } } });
    const rotated = body(await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/rotate-key', { id: created.ipp.id })).data as {
      device_key: string;
    };
    expect(rotated.device_key).not.toBe(created.device_key);
    const after = await env.db.kysely.selectFrom('ipps').select('device_key_hash').executeTakeFirstOrThrow();
    expect(after.device_key_hash).toBe(hashToken(rotated.device_key));
  });

  it('keeps a pixel size per station (µm per pixel): set, kept on an edit that leaves it out, cleared, bounded', async () => {
    const created = await register('ownAdmin', form(w.teamA, { pixel_size_um: 2.5 }));
    expect(created.ipp).toMatchObject({ pixel_size_um: 2.5 });
    const id = created.ipp.id;
    // An edit from an older client (no field) keeps it; null clears it.
    expect(body(await save('ownAdmin', form(w.teamA, { id, site_name: 'Renamed' }))).data).toMatchObject({
      ipp: { pixel_size_um: 2.5 },
    });
    expect(body(await save('ownAdmin', form(w.teamA, { id, pixel_size_um: null }))).data).toMatchObject({
      ipp: { pixel_size_um: null },
    });
    for (const bad of [0, -1, 1001, 'x']) {
      const res = body(await save('ownAdmin', form(w.teamA, { id, pixel_size_um: bad }), 'zh'));
      expect(res, String(bad)).toMatchObject({ code: 1002, model: { field: 'pixel_size_um' } });
      expect(res.msg).toMatch(/pixel_size_um/);
    }
    expect((await env.db.kysely.selectFrom('ipps').select('pixel_size_um').executeTakeFirstOrThrow()).pixel_size_um).toBeNull();
    // The detail viewer's insight carries it, to show an ROI's measures in µm.
    await env.db.kysely.updateTable('ipps').set({ pixel_size_um: 4 }).where('id', '=', id).execute();
    const key = body(await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/rotate-key', { id })).data as { device_key: string };
    const upload = await uploadRoi(env, key.device_key, { captured_at: env.clock.now - 1000, size_px: 10 }, await pngOf(5));
    const roiId = (body(upload).data as { roi_id: number }).roi_id;
    const insight = body(await call(env, w.tokens.user, 'GET', `/api/ai/roi?roi_id=${roiId}`)).data as { pixel_size_um: unknown };
    expect(insight.pixel_size_um).toBe(4);
  });

  it('keeps a time zone per station: an IANA name, kept on an edit that leaves it out, cleared; an unknown name refused', async () => {
    const created = await register('ownAdmin', form(w.teamA, { time_zone: 'America/Anchorage' }));
    expect(created.ipp).toMatchObject({ time_zone: 'America/Anchorage' });
    const id = created.ipp.id;
    expect(body(await save('ownAdmin', form(w.teamA, { id, site_name: 'Renamed' }))).data).toMatchObject({
      ipp: { time_zone: 'America/Anchorage' },
    });
    const bad = body(await save('ownAdmin', form(w.teamA, { id, time_zone: 'Mars/Olympus_Mons' }), 'zh'));
    expect(bad).toMatchObject({ code: 1002, model: { field: 'time_zone' } });
    expect(bad.msg).toContain('IANA');
    // Written in the runtime's own spelling; blank is none (the longitude's zone), like null.
    expect(body(await save('ownAdmin', form(w.teamA, { id, time_zone: 'asia/shanghai' }))).data).toMatchObject({
      ipp: { time_zone: 'Asia/Shanghai' },
    });
    expect(body(await save('ownAdmin', form(w.teamA, { id, time_zone: ' ' }))).data).toMatchObject({
      ipp: { time_zone: null },
    });
    expect(body(await save('ownAdmin', form(w.teamA, { id, time_zone: 'UTC' }))).data).toMatchObject({
      ipp: { time_zone: 'UTC' },
    });
    expect(body(await save('ownAdmin', form(w.teamA, { id, time_zone: null }))).data).toMatchObject({
      ipp: { time_zone: null },
    });
  });

  it('enforces every configuration limit at the server, naming the field', async () => {
    const cases: Array<[string, number]> = [
      ['frame_rate', 29.5],
      ['frame_rate', 0],
      ['background_count', 49],
      ['exposure_us', 0],
      ['binarization_threshold', 256],
      ['wiper_strokes', 11],
      ['uvc_port_duty_pct', 101],
    ];
    for (const [key, value] of cases) {
      const res = body(await save('superadmin', form(w.teamA, { config: { ...DEFAULT_IPP_CONFIG, [key]: value } })));
      expect({ key, code: res.code, field: res.model?.field }).toEqual({ key, code: 1002, field: `config.${key}` });
    }
    const limit = body(await save('superadmin', form(w.teamA, { config: { ...DEFAULT_IPP_CONFIG, frame_rate: 30 } }), 'zh'));
    expect(limit.msg).toBe('参数错误：config.frame_rate 不能大于 29');
    expect(body(await save('superadmin', form(w.teamA, { config: { ...DEFAULT_IPP_CONFIG, frame_rate: 29 } }))).code).toBe(1000);
    for (const [payload, field] of [
      [form(w.teamA, { dev_id: '' }), 'dev_id'],
      [form(w.teamA, { dev_id: 'a b' }), 'dev_id'],
      [form(w.teamA, { country: 'China' }), 'country'],
      [form(w.teamA, { latitude: 91 }), 'latitude'],
      [{ ...form(w.teamA), group_id: undefined }, 'group_id'],
      [form(999), 'group_id'],
      [form(w.teamA, { dev_id: '21005' }), 'dev_id'],
    ] as const) {
      const res = body(await save('superadmin', payload));
      expect({ field, code: res.code, named: res.model?.field }).toEqual({ field, code: 1002, named: field });
    }
    expect(await env.db.kysely.selectFrom('ipps').select('id').execute()).toHaveLength(1);
  });

  it('lists by team: a superadmin sees all, others their team; search by site, site ID or serial', async () => {
    await register('superadmin', form(w.teamA, { dev_id: 'A-1', site_name: 'Bohai', serial_number: 'SN-77' }));
    await register('superadmin', form(w.teamB, { dev_id: 'B-1', site_name: 'Qingdao pier' }));
    const list = (actor: keyof World['tokens'], query = '') =>
      call(env, w.tokens[actor], 'GET', `/api/ipp/index${query}`).then(
        (r) => body(r) as { data: { dev_id: string }[]; count: number },
      );
    expect((await list('superadmin')).data.map((i) => i.dev_id)).toEqual(['A-1', 'B-1']);
    expect((await list('superadmin', `?group_id=${w.teamB}`)).data.map((i) => i.dev_id)).toEqual(['B-1']);
    expect((await list('user')).data.map((i) => i.dev_id)).toEqual(['A-1']);
    expect((await list('user', `?group_id=${w.teamB}`)) as unknown).toMatchObject({ code: 1011 });
    expect((await list('otherAdmin')).data.map((i) => i.dev_id)).toEqual(['B-1']);
    expect((await list('superadmin', '?keyword=qingdao')).data.map((i) => i.dev_id)).toEqual(['B-1']);
    expect((await list('superadmin', '?keyword=sn-7')).data.map((i) => i.dev_id)).toEqual(['A-1']);
    expect((await list('superadmin', '?keyword=b-')).data.map((i) => i.dev_id)).toEqual(['B-1']);
    expect((await list('superadmin', '?limit=1&page=2')).count).toBe(2);
  });

  it('keeps every team to its own instruments, whatever ids are sent', async () => {
    const b = (await register('otherAdmin', form(w.teamB, { dev_id: 'B-9' }))).ipp;
    const intoOther = body(await save('ownAdmin', form(w.teamB, { dev_id: 'A-9' })));
    expect(intoOther).toMatchObject({ code: 1011, msg: "A Team Admin may only manage their own team's instruments" });
    for (const [method, url, payload] of [
      ['POST', '/api/site/ipp-one', { id: b.id }],
      ['POST', '/api/ipp/delete', { id: b.id }],
      ['POST', '/api/ipp/rotate-key', { id: b.id }],
      ['POST', '/api/ipp/save', form(w.teamA, { id: b.id, dev_id: 'B-9' })],
    ] as const) {
      const res = body(await call(env, w.tokens.ownAdmin, method, url, payload));
      expect({ url, code: res.code, msg: res.msg }).toEqual({ url, code: 1002, msg: 'The instrument does not exist' });
    }
    expect(body(await call(env, w.tokens.user, 'POST', '/api/ipp/save', form(w.teamA, { dev_id: 'U-1' }))).code).toBe(1011);
    expect(body(await call(env, w.tokens.user, 'POST', '/api/site/ipp-one', { id: b.id })).code).toBe(1002);
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/site/ipp-one', { id: b.id })).data).toMatchObject({
      dev_id: 'B-9',
    });
    expect(await env.db.kysely.selectFrom('ipps').select('dev_id').execute()).toEqual([{ dev_id: 'B-9' }]);
  });

  it('lets the read-only demo account read an instrument (a POST read) but not change it', async () => {
    const ipp = (await register('superadmin', form(w.teamA, { dev_id: 'D-1' }))).ipp;
    await createUser(env, 'demo_ro', 'user', { groupId: w.teamA, demo: true });
    const token = await login(env, 'demo_ro');
    expect(body(await call(env, token, 'POST', '/api/site/ipp-one', { id: ipp.id })).data).toMatchObject({ dev_id: 'D-1' });
    expect(body(await call(env, token, 'POST', '/api/setting/set-group-view', { group_id: null, ids: [ipp.id] })).code).toBe(
      1011,
    );
  });

  it('refuses to remove a team that still has instruments', async () => {
    const team = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { name: 'Fleet' })).data as { id: number };
    const ipp = (await register('superadmin', form(team.id, { dev_id: 'F-1' }))).ipp;
    const refused = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/delete', { id: team.id }));
    expect(refused).toMatchObject({
      code: 1001,
      msg: 'The team still has 0 user(s) and 1 instrument(s); remove or move them first',
    });
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/ipp/delete', { id: ipp.id })).code).toBe(1000);
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/group/delete', { id: team.id })).code).toBe(1000);
  });
});

describe.each(dialects)('followed stations (Select IPP) on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const register = async (groupId: number, devId: string) =>
    (
      body(await call(env, w.tokens.superadmin, 'POST', '/api/ipp/save', form(groupId, { dev_id: devId }))).data as {
        ipp: { id: number };
      }
    ).ipp.id;

  it('keeps each user their own list, in their order, within their team', async () => {
    const a1 = await register(w.teamA, 'A-1');
    const a2 = await register(w.teamA, 'A-2');
    const b1 = await register(w.teamB, 'B-1');
    expect(body(await call(env, w.tokens.user, 'GET', '/api/setting/get-group-view')).data).toEqual({
      group_id: w.teamA,
      loc: [],
    });
    const saved = body(
      await call(env, w.tokens.user, 'POST', '/api/setting/set-group-view', { group_id: w.teamA, ids: [a2, a1, a2] }),
    );
    expect(saved.data).toEqual({
      group_id: w.teamA,
      loc: [
        { id: a2, dev_id: 'A-2' },
        { id: a1, dev_id: 'A-1' },
      ],
    });
    // Another team's station cannot be followed, and another team cannot be named.
    expect(
      body(await call(env, w.tokens.user, 'POST', '/api/setting/set-group-view', { group_id: w.teamA, ids: [b1] })),
    ).toMatchObject({ code: 1002, model: { field: 'ids' } });
    expect(body(await call(env, w.tokens.user, 'POST', '/api/setting/set-group-view', { group_id: w.teamB, ids: [] })).code).toBe(
      1011,
    );
    // The admin of team A has a list of their own.
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', '/api/setting/get-group-view')).data).toEqual({
      group_id: w.teamA,
      loc: [],
    });
    // A superadmin picks the team.
    const su = body(
      await call(env, w.tokens.superadmin, 'POST', '/api/setting/set-group-view', { group_id: w.teamB, ids: [b1] }),
    );
    expect(su.data).toEqual({ group_id: w.teamB, loc: [{ id: b1, dev_id: 'B-1' }] });
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/setting/get-group-view')).data).toMatchObject({
      group_id: w.teamB,
    });
    // A deleted station drops out.
    await call(env, w.tokens.superadmin, 'POST', '/api/ipp/delete', { id: a2 });
    expect(body(await call(env, w.tokens.user, 'GET', '/api/setting/get-group-view')).data).toEqual({
      group_id: w.teamA,
      loc: [{ id: a1, dev_id: 'A-1' }],
    });
  });
});
