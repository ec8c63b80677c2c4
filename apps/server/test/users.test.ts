import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, get, loginRequest, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { dialects } from './helpers/dialects.ts';

const form = (over: Record<string, unknown> = {}) => ({
  account: 'new_user',
  name: 'New User',
  password: 'pass-123',
  phone: '+86 138-0000-0000',
  email: 'new@example.org',
  group_id: null,
  role: 'user',
  ...over,
});

describe.each(dialects)('users on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const save = (token: string | undefined, payload: object, lang = 'en') =>
    call(env, token, 'POST', '/api/user/save', payload, lang);

  it('searches by account, email and phone; an administrator only ever gets their own team', async () => {
    const all = body(await call(env, w.tokens.superadmin, 'GET', '/api/user/index?limit=50'));
    expect(all.count).toBe(5);
    const byAccount = body(await call(env, w.tokens.superadmin, 'GET', '/api/user/index?account=ADMIN_'));
    expect((byAccount.data as { account: string }[]).map((u) => u.account)).toEqual(['admin_a', 'admin_b']);
    const byTeam = body(await call(env, w.tokens.superadmin, 'GET', `/api/user/index?group_id=${w.teamB}`));
    expect((byTeam.data as { account: string; group_name: string }[]).map((u) => [u.account, u.group_name])).toEqual([
      ['admin_b', 'Team B'],
      ['user_b', 'Team B'],
    ]);
    const own = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/user/index'));
    expect((own.data as { account: string }[]).map((u) => u.account)).toEqual(['admin_a', 'user_a']);
    // Asking for another team is refused, not answered with one's own (access-matrix.test.ts checks every such route).
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', `/api/user/index?group_id=${w.teamB}`)).code).toBe(1011);
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', `/api/user/index?group_id=${w.teamA}`)).code).toBe(1000);
    expect(JSON.stringify(all.data)).not.toContain('password');
  });

  it('creates a user with every field checked, and the new account can sign in', async () => {
    const created = body(await save(w.tokens.superadmin, form({ group_id: w.teamB, account: 'sea.ops', role: 'user' })));
    expect(created.data).toMatchObject({
      account: 'sea.ops',
      name: 'New User',
      phone: '+86 138-0000-0000',
      email: 'new@example.org',
      group_id: w.teamB,
      group_name: 'Team B',
      role: 'user',
      demo: false,
    });
    expect(body(await loginRequest(env, 'sea.ops', 'pass-123')).data).toMatchObject({ role: 'user', name: 'New User' });
    // A superadmin needs no team.
    expect(body(await save(w.tokens.superadmin, form({ account: 'chief', role: 'superadmin', group_id: null }))).code).toBe(1000);
  });

  it('names each bad field, in both languages', async () => {
    const cases: Array<[object, string]> = [
      [form({ account: '' }), 'account'],
      [form({ account: 'has space' }), 'account'],
      [form({ name: '' }), 'name'],
      [form({ password: '12345' }), 'password'],
      [form({ phone: 'call me' }), 'phone'],
      [form({ email: 'not-an-email' }), 'email'],
      [form({ role: 'king' }), 'role'],
    ];
    for (const [payload, field] of cases) {
      const res = body(await save(w.tokens.superadmin, payload));
      expect({ field, code: res.code, named: res.model?.field }).toEqual({ field, code: 1002, named: field });
    }
    const noTeam = body(await save(w.tokens.superadmin, form({ group_id: null, role: 'user' }), 'zh'));
    expect(noTeam).toMatchObject({ code: 1002, msg: '请选择团队！', model: { field: 'group_id' } });
    const noPassword = body(await save(w.tokens.superadmin, form({ group_id: w.teamA, password: '' })));
    expect(noPassword).toMatchObject({ code: 1002, model: { field: 'password' } });
    const taken = body(await save(w.tokens.superadmin, form({ account: 'admin_a', role: 'superadmin' })));
    expect(taken).toMatchObject({ code: 1002, msg: 'This account name is taken; choose another' });
    const ghostTeam = body(await save(w.tokens.superadmin, form({ group_id: 999 })));
    expect(ghostTeam).toMatchObject({ code: 1002, model: { field: 'group_id' } });
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/user/index')).count).toBe(5);
  });

  it('enforces 1 administrator and 3 users per team on create, edit and role change', async () => {
    const extraUser = (n: number) => form({ account: `crew${n}`, group_id: w.teamA });
    expect(body(await save(w.tokens.superadmin, extraUser(1))).code).toBe(1000);
    expect(body(await save(w.tokens.superadmin, extraUser(2))).code).toBe(1000);
    const fourth = body(await save(w.tokens.superadmin, extraUser(3)));
    expect(fourth).toMatchObject({ code: 1001, msg: 'Every team has 1 administrator and 3 users' });
    expect(body(await save(w.tokens.superadmin, extraUser(3), 'zh')).msg).toBe('每个团队最多 1 个管理员和 3 个用户');
    const secondAdmin = body(
      await save(w.tokens.superadmin, form({ account: 'boss2', group_id: w.teamA, role: 'administrator' })),
    );
    expect(secondAdmin.code).toBe(1001);
    // Moving team B's user into full team A is refused too; editing within the team is fine.
    const move = body(
      await save(w.tokens.superadmin, form({ id: w.ids.userB, account: 'user_b', group_id: w.teamA, password: '' })),
    );
    expect(move.code).toBe(1001);
    const rename = body(
      await save(
        w.tokens.superadmin,
        form({ id: w.ids.user, account: 'user_a', name: 'Renamed', group_id: w.teamA, password: '' }),
      ),
    );
    expect(rename.data).toMatchObject({ name: 'Renamed' });
    // Promoting a user to administrator in a team that has one is refused.
    const promote = body(
      await save(
        w.tokens.superadmin,
        form({ id: w.ids.user, account: 'user_a', group_id: w.teamA, role: 'administrator', password: '' }),
      ),
    );
    expect(promote.code).toBe(1001);
    // The limits are settings.
    await call(env, w.tokens.superadmin, 'POST', '/api/setting/save', { team_max_users: 4 });
    expect(body(await save(w.tokens.superadmin, extraUser(3))).code).toBe(1000);
  });

  it('lets an administrator manage only the Users of their own team, granting only the role User', async () => {
    const mine = body(await save(w.tokens.ownAdmin, form({ account: 'crew_a', group_id: w.teamA })));
    expect(mine.code).toBe(1000);
    const elsewhere = body(await save(w.tokens.ownAdmin, form({ account: 'crew_x', group_id: w.teamB })));
    expect(elsewhere).toMatchObject({ code: 1011, msg: 'A Team Admin may only manage accounts of their own team' });
    const grantAdmin = body(await save(w.tokens.ownAdmin, form({ account: 'crew_y', group_id: w.teamA, role: 'administrator' })));
    expect(grantAdmin.code).toBe(1011);
    const grantSuper = body(await save(w.tokens.ownAdmin, form({ account: 'crew_z', group_id: null, role: 'superadmin' })));
    expect(grantSuper.code).toBe(1011);
    const editOther = body(
      await save(w.tokens.ownAdmin, form({ id: w.ids.userB, account: 'user_b', group_id: w.teamA, password: '' })),
    );
    // Another team's user is answered as if it did not exist: no refusal tells what is there.
    expect(editOther.code).toBe(1002);
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', `/api/user/view?id=${w.ids.userB}`)).code).toBe(1002);
    expect(body(await call(env, w.tokens.ownAdmin, 'GET', `/api/user/view?id=${w.ids.user}`)).code).toBe(1000);
    expect(body(await call(env, w.tokens.ownAdmin, 'POST', '/api/user/delete', { id: w.ids.userB })).code).toBe(1002);
    expect(body(await call(env, w.tokens.superadmin, 'GET', `/api/user/view?id=${w.ids.userB}`)).code).toBe(1000);
  });

  it('never deletes yourself or the last superadmin', async () => {
    const self = body(await call(env, w.tokens.superadmin, 'POST', '/api/user/delete', { id: w.ids.superadmin }));
    expect(self).toMatchObject({ code: 1001, msg: 'You cannot delete your own account' });
    const demote = body(
      await save(
        w.tokens.superadmin,
        form({ id: w.ids.superadmin, account: 'su', group_id: w.teamA, role: 'user', password: '' }),
      ),
    );
    expect(demote).toMatchObject({ code: 1001, msg: 'The last Super Admin cannot be removed or demoted' });
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/user/delete', { id: w.ids.user })).code).toBe(1000);
    expect(body(await call(env, w.tokens.superadmin, 'GET', `/api/user/view?id=${w.ids.user}`)).code).toBe(1002);
  });

  it('ends the sessions of a user whose role or password changed', async () => {
    const before = body(await get(env, '/api/wyrbac/login/user-info', w.tokens.user));
    expect(before.code).toBe(1000);
    await save(w.tokens.superadmin, form({ id: w.ids.user, account: 'user_a', group_id: w.teamA, password: 'brand-new-1' }));
    expect(body(await get(env, '/api/wyrbac/login/user-info', w.tokens.user)).code).toBe(1010);
    expect(body(await loginRequest(env, 'user_a', 'brand-new-1')).code).toBe(1000);
    // A plain edit (no role, team or password change) keeps the session.
    const token = (body(await loginRequest(env, 'admin_b')).data as { token: string }).token;
    await save(
      w.tokens.superadmin,
      form({ id: w.ids.otherAdmin, account: 'admin_b', name: 'B boss', group_id: w.teamB, role: 'administrator', password: '' }),
    );
    expect(body(await get(env, '/api/wyrbac/login/user-info', token)).code).toBe(1000);
  });
});

describe.each(dialects)('account on %s', (dialect) => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    await buildWorld(env);
  });
  afterEach(() => env.close());

  it('changes the password: checks the current one, ends the other sessions, keeps this one', async () => {
    const other = (body(await loginRequest(env, 'user_a')).data as { token: string }).token;
    // That sign-in displaced the world's token; sign in again for "this" session.
    const mine = (body(await loginRequest(env, 'user_a')).data as { token: string }).token;
    const wrong = body(
      await call(env, mine, 'POST', '/api/account/change-pass-wd', { password: 'nope-nope', newpassword: 'next-pass' }),
    );
    expect(wrong).toMatchObject({ code: 1001, msg: 'The current password is incorrect', model: { field: 'password' } });
    const same = body(
      await call(env, mine, 'POST', '/api/account/change-pass-wd', { password: 'secret-pass', newpassword: 'secret-pass' }),
    );
    expect(same).toMatchObject({ code: 1002, model: { field: 'newpassword' } });
    const short = body(
      await call(env, mine, 'POST', '/api/account/change-pass-wd', { password: 'secret-pass', newpassword: '123' }),
    );
    expect(short).toMatchObject({ code: 1002, model: { field: 'newpassword' } });
    expect(
      body(await call(env, mine, 'POST', '/api/account/change-pass-wd', { password: 'secret-pass', newpassword: 'next-pass' }))
        .code,
    ).toBe(1000);
    expect(body(await get(env, '/api/wyrbac/login/user-info', mine)).code).toBe(1000);
    expect(body(await get(env, '/api/wyrbac/login/user-info', other)).code).toBe(1010);
    expect(body(await loginRequest(env, 'user_a', 'secret-pass')).code).toBe(1001);
    expect(body(await loginRequest(env, 'user_a', 'next-pass')).code).toBe(1000);
  });
});
