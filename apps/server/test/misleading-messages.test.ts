import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

type Token = string | undefined;

/** Issue 37: messages that said the wrong thing now say what is wrong and what is needed, in zh and en. */
describe.each(dialects)('error messages that mislead no longer (%s)', (dialect) => {
  let env: TestEnv;
  let w: World;

  /** The failure in both languages: [status, code, field, en, zh]. */
  const both = async (token: Token, method: 'GET' | 'POST', url: string, payload?: object) => {
    const [en, zh] = [
      body(await call(env, token, method, url, payload, 'en')),
      body(await call(env, token, method, url, payload, 'zh')),
    ];
    const res = await call(env, token, method, url, payload, 'en');
    return [res.statusCode, en.code, en.model?.field ?? null, en.msg, zh.msg];
  };

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  it('says a missing query parameter is required, not that it has the wrong type', async () => {
    expect(await both(w.tokens.user, 'GET', '/api/roi-index/index')).toEqual([
      400,
      1002,
      'category_id',
      'Invalid parameter: category_id is required',
      '参数错误：category_id 为必填项',
    ]);
    // Sent but not a number: a type error still, in the one word every numeric field uses.
    expect(await both(w.tokens.user, 'GET', '/api/roi-index/index?category_id=abc')).toEqual([
      400,
      1002,
      'category_id',
      'Invalid parameter: category_id must be a number',
      '参数错误：category_id 应为数字',
    ]);
    // A missing body field was right already and stays so.
    expect((await both(w.tokens.ownAdmin, 'POST', '/api/user/delete', {})).slice(3)).toEqual([
      'Invalid parameter: id is required',
      '参数错误：id 为必填项',
    ]);
  });

  it('names numbers with one word: a number, or a whole number where only integers are taken (never "int")', async () => {
    const cases: [Token, 'GET' | 'POST', string, object | undefined, string, string, string][] = [
      [
        w.tokens.user,
        'GET',
        '/api/roi-index/index?category_id=1.5',
        undefined,
        'category_id',
        'must be a whole number',
        '应为整数',
      ],
      [w.tokens.ownAdmin, 'POST', '/api/user/delete', { id: 1.5 }, 'id', 'must be a whole number', '应为整数'],
      [w.tokens.ownAdmin, 'POST', '/api/user/delete', { id: 'x' }, 'id', 'must be a number', '应为数字'],
      [w.tokens.ownAdmin, 'POST', '/api/user/delete', { id: null }, 'id', 'must be a number', '应为数字'],
    ];
    for (const [token, method, url, payload, field, en, zh] of cases) {
      expect(await both(token, method, url, payload)).toEqual([
        400,
        1002,
        field,
        `Invalid parameter: ${field} ${en}`,
        `参数错误：${field} ${zh}`,
      ]);
    }
  });

  it('says what POST /setting/save-user needs when it is given nothing', async () => {
    expect(await both(w.tokens.user, 'POST', '/api/setting/save-user', {})).toEqual([
      400,
      1002,
      'body',
      'Invalid parameter: body must give at least one of language (zh or en), size or view',
      '参数错误：body 至少需要 language（zh 或 en）、size 或 view 中的一项',
    ]);
    // A wrong language is still "language" that is wrong.
    expect((await both(w.tokens.user, 'POST', '/api/setting/save-user', { language: 'fr' }))[2]).toBe('language');
  });

  it('tells an administrator creating an administrator in their own team that only Users may be managed', async () => {
    const form = (over: object) => ({
      account: 'crew',
      name: 'Crew',
      password: 'pass-123',
      phone: '+86 138-0000-0000',
      email: 'crew@example.org',
      group_id: w.teamA,
      role: 'user',
      ...over,
    });
    expect(await both(w.tokens.ownAdmin, 'POST', '/api/user/save', form({ role: 'administrator' }))).toEqual([
      403,
      1011,
      'role',
      'A Team Admin may create and manage only accounts with the role User, not Team Admins',
      '团队管理员只能创建和管理角色为“普通用户”的账号，不能创建或管理团队管理员',
    ]);
    // Another team is refused for the team, and one's own role is not theirs to change.
    expect(await both(w.tokens.ownAdmin, 'POST', '/api/user/save', form({ group_id: w.teamB }))).toEqual([
      403,
      1011,
      'group_id',
      'A Team Admin may only manage accounts of their own team',
      '团队管理员只能管理本团队的账号',
    ]);
    const self = form({ id: w.ids.ownAdmin, account: 'admin_a', role: 'user', password: '' });
    expect(await both(w.tokens.ownAdmin, 'POST', '/api/user/save', self)).toEqual([
      403,
      1011,
      'role',
      'A Team Admin cannot change their own role',
      '团队管理员不能更改自己的角色',
    ]);
  });

  it("refuses the read-only demo set-roi-label-index with the demo's refusal, as every other write", async () => {
    await createUser(env, 'demo', 'user', { groupId: w.teamA, demo: true });
    const demo = await login(env, 'demo');
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const up = body(
      await uploadRoi(env, a1.key, { captured_at: env.clock.now - 60_000, label_index: 1, size_px: 2500 }, await pngOf(1)),
    );
    const roiId = (up.data as { roi_id: number }).roi_id;
    const refusal = [403, 1011, null, 'The demo account is read-only', '演示账号为只读，不能修改数据'];
    expect(await both(demo, 'GET', `/api/roi/set-roi-label-index?roi_id=${roiId}&roi_labelindex=2`)).toEqual(refusal);
    expect(await both(demo, 'POST', '/api/roi/set-favorite', { roi_id: roiId, favorite: true })).toEqual(refusal);
    // The demo still reads.
    expect(body(await call(env, demo, 'GET', `/api/roi/get-roi-details?roi_id=${roiId}`)).code).toBe(1000);
  });
});
