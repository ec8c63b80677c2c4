import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, buildTestApp, createUser, type TestEnv } from './helpers/build.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { dialects } from './helpers/dialects.ts';

describe.each(dialects)('teams on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  it('lists teams with their administrator and member counts, searchable and paged', async () => {
    await createUser(env, 'su2', 'superadmin', { groupId: w.teamA });
    const res = body(await call(env, w.tokens.superadmin, 'GET', '/api/group/index?page=1&limit=10'));
    expect(res.count).toBe(2);
    expect(res.data).toEqual([
      expect.objectContaining({
        id: w.teamA,
        name: 'Team A',
        admin_account: 'admin_a',
        admin_name: 'Name of admin_a',
        superadmin_count: 1,
        admin_count: 1,
        user_count: 1,
      }),
      expect.objectContaining({
        id: w.teamB,
        name: 'Team B',
        admin_account: 'admin_b',
        superadmin_count: 0,
        admin_count: 1,
        user_count: 1,
      }),
    ]);
    const search = body(await call(env, w.tokens.superadmin, 'GET', '/api/group/index?name=m%20b'));
    expect(search.count).toBe(1);
    expect((search.data as { name: string }[])[0]?.name).toBe('Team B');
    const page2 = body(await call(env, w.tokens.superadmin, 'GET', '/api/group/index?page=2&limit=1'));
    expect(page2.count).toBe(2);
    expect((page2.data as { name: string }[]).map((t) => t.name)).toEqual(['Team B']);
    // LIKE wildcards in the search are literal.
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/group/index?name=%25')).count).toBe(0);
  });

  it('shows an administrator only their own team, whatever they search', async () => {
    const res = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/group/index?name=Team'));
    expect(res.count).toBe(1);
    expect((res.data as { id: number }[]).map((t) => t.id)).toEqual([w.teamA]);
  });

  it('creates and renames teams, refusing an empty or duplicate name', async () => {
    const created = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { name: '  Team C ' }));
    expect(created.data).toMatchObject({ name: 'Team C', admin_account: null, user_count: 0 });
    const id = (created.data as { id: number }).id;
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { id, name: 'Team Sea' })).data).toMatchObject({
      id,
      name: 'Team Sea',
    });
    const empty = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { name: '  ' }));
    expect(empty).toMatchObject({ code: 1002, model: { field: 'name' } });
    const duplicate = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { name: 'Team A' }, 'zh'));
    expect(duplicate).toMatchObject({ code: 1002, msg: '参数错误：name 已存在', model: { field: 'name' } });
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { id: 9999, name: 'Ghost' })).code).toBe(1002);
  });

  it('refuses to remove a team that still has users, and says how many', async () => {
    const refused = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/delete', { id: w.teamA }));
    expect(refused).toMatchObject({
      code: 1001,
      msg: 'The team still has 2 user(s) and 0 instrument(s); remove or move them first',
    });
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/group/index')).count).toBe(2);
    const empty = body(await call(env, w.tokens.superadmin, 'POST', '/api/group/save', { name: 'Empty' }));
    const id = (empty.data as { id: number }).id;
    expect(body(await call(env, w.tokens.superadmin, 'POST', '/api/group/delete', { id })).code).toBe(1000);
    expect(body(await call(env, w.tokens.superadmin, 'GET', '/api/group/index')).count).toBe(2);
  });
});
