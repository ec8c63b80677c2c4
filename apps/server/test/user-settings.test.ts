import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { registerIpp } from './helpers/device.ts';
import { dialects } from './helpers/dialects.ts';

const SAVE_USER = '/api/setting/save-user';
const USER_INFO = '/api/wyrbac/login/user-info';

/** POST /setting/save-user (spec §7): the signed-in user's own language, component size and followed stations. */
describe.each(dialects)('POST /setting/save-user on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  it('saves my language and size; user-info answers them, another user keeps the defaults', async () => {
    expect(body(await call(env, w.tokens.user, 'GET', USER_INFO)).data).toMatchObject({ language: null, size: null });
    const saved = body(await call(env, w.tokens.user, 'POST', SAVE_USER, { language: 'en', size: 'large' }));
    expect(saved).toMatchObject({ code: 1000, data: { language: 'en', size: 'large', view: { group_id: w.teamA, loc: [] } } });
    // A new sign-in (another browser) gets them back.
    const again = await login(env, 'user_a');
    expect(body(await call(env, again, 'GET', USER_INFO)).data).toMatchObject({ language: 'en', size: 'large' });
    // Any subset: the size alone leaves the language (signing in again ended the first session).
    expect(body(await call(env, again, 'POST', SAVE_USER, { size: 'small' })).data).toMatchObject({
      language: 'en',
      size: 'small',
    });
    // Only my own: the team's administrator is untouched.
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', USER_INFO)).data).toMatchObject({ language: null, size: null });
  });

  it('saves the stations I follow with the team checks of set-group-view', async () => {
    const a1 = (await registerIpp(env, w.tokens.superadmin, w.teamA, 'A-1')).id;
    const b1 = (await registerIpp(env, w.tokens.superadmin, w.teamB, 'B-1')).id;
    const saved = body(
      await call(env, w.tokens.user, 'POST', SAVE_USER, { language: 'zh', view: { group_id: w.teamA, ids: [a1] } }),
    );
    expect(saved.data).toEqual({
      language: 'zh',
      size: null,
      view: { group_id: w.teamA, loc: [{ id: a1, dev_id: 'A-1' }] },
    });
    expect(body(await call(env, w.tokens.user, 'GET', '/api/setting/get-group-view')).data).toEqual({
      group_id: w.teamA,
      loc: [{ id: a1, dev_id: 'A-1' }],
    });
    // Another team's station is refused, and nothing of the request is written (the language stays zh).
    const refused = body(
      await call(env, w.tokens.user, 'POST', SAVE_USER, { language: 'en', view: { group_id: w.teamA, ids: [b1] } }),
    );
    expect(refused).toMatchObject({ code: 1002, model: { field: 'ids' } });
    // Naming another team is refused.
    expect(body(await call(env, w.tokens.user, 'POST', SAVE_USER, { view: { group_id: w.teamB, ids: [b1] } })).code).toBe(1011);
    expect(body(await call(env, w.tokens.user, 'GET', USER_INFO)).data).toMatchObject({ language: 'zh' });
    expect(body(await call(env, w.tokens.user, 'GET', '/api/setting/get-group-view')).data).toMatchObject({
      loc: [{ id: a1, dev_id: 'A-1' }],
    });
  });

  it('refuses bad input with a clear message in zh and en, and writes nothing', async () => {
    for (const [payload, field] of [
      [{ language: 'fr' }, 'language'],
      [{ size: 'huge' }, 'size'],
      [{}, 'language'],
      [{ user_id: w.ids.ownAdmin, language: 'en' }, 'user_id'],
      [{ view: { group_id: w.teamA, ids: ['x'] } }, 'view'],
    ] as const) {
      for (const lang of ['en', 'zh']) {
        const res = body(await call(env, w.tokens.user, 'POST', SAVE_USER, payload, lang));
        expect(res.code, JSON.stringify(payload)).toBe(1002);
        expect(String(res.msg)).toContain(field);
        expect(String(res.msg)).toMatch(lang === 'zh' ? /[\u4e00-\u9fff]/ : /^[\x20-\x7e]+$/);
      }
    }
    expect(body(await call(env, w.tokens.user, 'GET', USER_INFO)).data).toMatchObject({ language: null, size: null });
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', USER_INFO)).data).toMatchObject({ language: null, size: null });
  });

  it('needs a session, and the read-only demo account may not write', async () => {
    expect(body(await call(env, undefined, 'POST', SAVE_USER, { language: 'en' })).code).toBe(1010);
    await createUser(env, 'demo_ro', 'user', { groupId: w.teamA, demo: true });
    const demo = await login(env, 'demo_ro');
    expect(body(await call(env, demo, 'POST', SAVE_USER, { language: 'en' })).code).toBe(1011);
  });
});
