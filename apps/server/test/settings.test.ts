import { ADMIN_DATA_ROUTES } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, get, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { dialects } from './helpers/dialects.ts';
import { upload } from './helpers/upload.ts';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(dialects)('system settings on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  it('has the documented defaults and saves any subset', async () => {
    const defaults = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/setting/index'));
    expect(defaults.data).toEqual({
      team_max_admins: 1,
      team_max_users: 3,
      idle_minutes: 30,
      default_language: 'zh',
      site_title: '',
      logo: '',
      offline_minutes: 10,
      recycle_retention_days: 30,
      wall_max: 100,
      map_tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    });
    const saved = body(
      await call(env, w.tokens.superadmin, 'POST', '/api/setting/save', { site_title: 'Bohai IPP', offline_minutes: 15 }),
    );
    expect(saved.data).toMatchObject({ site_title: 'Bohai IPP', offline_minutes: 15, idle_minutes: 30 });
    const init = body(await get(env, '/api/setting/get-set-init'));
    expect(init.data).toEqual({
      site_title: 'Bohai IPP',
      logo: '',
      default_language: 'zh',
      idle_minutes: 30,
      map_tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      wall_max: 100,
    });
  });

  it('refuses out-of-range values and unknown keys, naming them, and writes nothing', async () => {
    for (const [payload, field] of [
      [{ idle_minutes: 0 }, 'idle_minutes'],
      [{ team_max_users: 'three' }, 'team_max_users'],
      [{ default_language: 'fr' }, 'default_language'],
      [{ map_tile_url: 'ftp://tiles/{z}/{x}/{y}.png' }, 'map_tile_url'],
      [{ map_tile_url: 'https://tiles.example/{z}/{x}.png' }, 'map_tile_url'],
      [{ logo: 'http://evil' }, 'logo'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const res = body(await call(env, w.tokens.superadmin, 'POST', '/api/setting/save', payload));
      expect({ field, code: res.code, named: res.model?.field }).toEqual({ field, code: 1002, named: field });
    }
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/setting/index')).data).toMatchObject({
      idle_minutes: 30,
      logo: '',
    });
  });

  it('applies the idle minutes to sessions', async () => {
    await call(env, w.tokens.superadmin, 'POST', '/api/setting/save', { idle_minutes: 5 });
    env.clock.advance(5 * 60_000 + 1);
    expect(body(await get(env, '/api/wyrbac/login/user-info', w.tokens.user)).code).toBe(1010);
  });

  it('takes a logo as a sniffed image and serves it immutable under a content-hashed URL', async () => {
    const res = body(await upload(env, w.tokens.superadmin, '/api/setting/logo', PNG_1x1, 'logo.png'));
    expect(res.code).toBe(1000);
    const logo = (res.data as { logo: string }).logo;
    expect(logo).toMatch(/^setting\/logo\?v=[0-9a-f]{12}$/);
    const image = await env.app.inject({ method: 'GET', url: `/api/${logo}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toContain('immutable');
    expect(image.rawPayload.equals(PNG_1x1)).toBe(true);
    // A script named .png is not an image; a big file is refused with 413.
    const fake = await upload(env, w.tokens.superadmin, '/api/setting/logo', Buffer.from('<svg onload=alert(1)>'), 'logo.png');
    expect(fake.statusCode).toBe(415);
    expect(body(fake)).toMatchObject({ code: 1002, model: { field: 'file' } });
    expect(body(fake).msg).toMatch(/not a PNG, JPEG or WebP image/);
    const big = await upload(
      env,
      w.tokens.superadmin,
      '/api/setting/logo',
      Buffer.concat([PNG_1x1, Buffer.alloc(1024 * 1024 + 10)]),
      'big.png',
    );
    expect(body(big)).toMatchObject({ code: 1002, msg: 'The file is too large (at most 1024 KB)' });
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/setting/index')).data).toMatchObject({ logo });
  });

  it('describes the system to a superadmin', async () => {
    const info = body(await call(env, w.tokens.superadmin, 'GET', '/api/spi-info/index'));
    expect(info.data).toMatchObject({ version: '0.1.0', database: dialect, teams: 2, users: 5 });
  });
});

describe.each(dialects)('role lists on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  it('serves the roles in both languages and the list of every console route', async () => {
    const table = body(await call(env, w.tokens.user, 'GET', '/api/setting/get-role')).data as {
      roles: { role: string; name_zh: string; name_en: string }[];
      routes: { path: string; roles: string[] | null }[];
    };
    expect(table.roles).toEqual([
      { role: 'superadmin', name_zh: '超级管理员', name_en: 'Super Admin' },
      { role: 'administrator', name_zh: '团队管理员', name_en: 'Team Admin' },
      { role: 'user', name_zh: '普通用户', name_en: 'User' },
    ]);
    expect(table.routes).toHaveLength(16);
    expect(table.routes.find((r) => r.path === '/manage/user')?.roles).toEqual(['superadmin', 'administrator']);
    expect(table.routes.find((r) => r.path === '/identify')?.roles).toBeNull();
    // Alarms (issue 23): every role of the team reads and acknowledges them.
    expect(table.routes.find((r) => r.path === '/alarms')?.roles).toBeNull();
  });

  it('lets a superadmin change what users may open', async () => {
    const saved = body(
      await call(env, w.tokens.superadmin, 'POST', '/api/setting/save-role', {
        routes: [
          { path: '/identify', roles: ['superadmin', 'administrator'] },
          { path: '/manage/system', roles: ['superadmin', 'administrator', 'user'] },
        ],
      }),
    );
    expect(saved.code).toBe(1000);
    const table = body(await call(env, w.tokens.user, 'GET', '/api/setting/get-role')).data as {
      routes: { path: string; roles: string[] | null }[];
    };
    expect(table.routes.find((r) => r.path === '/identify')?.roles).toEqual(['superadmin', 'administrator']);
    expect(table.routes.find((r) => r.path === '/manage/system')?.roles).toBeNull();
    const unknown = body(
      await call(env, w.tokens.superadmin, 'POST', '/api/setting/save-role', { routes: [{ path: '/nowhere', roles: null }] }),
    );
    expect(unknown).toMatchObject({ code: 1002, model: { field: 'routes.0.path' } });
  });

  it('refuses to give users a page whose data the server gives only to administrators (zh and en), writing nothing', async () => {
    for (const lang of ['en', 'zh']) {
      const refused = body(
        await call(
          env,
          w.tokens.superadmin,
          'POST',
          '/api/setting/save-role',
          {
            routes: [
              { path: '/identify', roles: ['superadmin', 'administrator'] },
              { path: '/manage/group', roles: null },
            ],
          },
          lang,
        ),
      );
      expect(refused).toMatchObject({ code: 1002, model: { field: 'routes.1.roles' } });
      expect(String(refused.msg)).toMatch(lang === 'zh' ? /仅对管理员开放/ : /only to administrators/);
    }
    const table = body(await call(env, w.tokens.user, 'GET', '/api/setting/get-role')).data as {
      routes: { path: string; roles: string[] | null }[];
    };
    expect(table.routes.find((r) => r.path === '/identify')?.roles).toBeNull();
    for (const path of Object.keys(ADMIN_DATA_ROUTES)) {
      expect(table.routes.find((r) => r.path === path)?.roles, path).toEqual(['superadmin', 'administrator']);
    }
  });

  it('lists as admin-data pages exactly those whose calls the server refuses to users', async () => {
    const accessOf = (call: string) => {
      const [method, url] = call.split(' ');
      const found = env.app.routeAccess.find((r) => r.method === method && r.url === `/api${url}`);
      if (!found) throw new Error(`no such call: ${call}`);
      return found.access;
    };
    for (const [path, calls] of Object.entries(ADMIN_DATA_ROUTES)) {
      // At least one of the page's calls is refused to role user.
      expect(
        calls!.some((c) => {
          const access = accessOf(c);
          return access !== 'signed-in' && access !== 'public' && !(access as readonly string[]).includes('user');
        }),
        path,
      ).toBe(true);
    }
    // And the user may call what a user's own pages need: the team list is refused, the station list is not.
    expect(body(await call(env, w.tokens.user, 'GET', '/api/group/index')).code).toBe(1011);
    expect(body(await call(env, w.tokens.user, 'GET', '/api/ipp/index')).code).toBe(1000);
  });
});
