import { createTeam, createUser, login, type TestEnv } from './build.ts';

export const ACTORS = ['superadmin', 'ownAdmin', 'otherAdmin', 'user', 'anonymous'] as const;
export type Actor = (typeof ACTORS)[number];

export interface World {
  teamA: number;
  teamB: number;
  ids: { superadmin: number; ownAdmin: number; otherAdmin: number; user: number; userB: number };
  tokens: Record<Actor, string | undefined>;
}

/** Two teams: A with an administrator and a user, B with an administrator and a user; plus a superadmin. */
export async function buildWorld(env: TestEnv): Promise<World> {
  const teamA = await createTeam(env, 'Team A');
  const teamB = await createTeam(env, 'Team B');
  const ids = {
    superadmin: await createUser(env, 'su', 'superadmin'),
    ownAdmin: await createUser(env, 'admin_a', 'administrator', { groupId: teamA }),
    otherAdmin: await createUser(env, 'admin_b', 'administrator', { groupId: teamB }),
    user: await createUser(env, 'user_a', 'user', { groupId: teamA }),
    userB: await createUser(env, 'user_b', 'user', { groupId: teamB }),
  };
  const tokens: Record<Actor, string | undefined> = {
    superadmin: await login(env, 'su'),
    ownAdmin: await login(env, 'admin_a'),
    otherAdmin: await login(env, 'admin_b'),
    user: await login(env, 'user_a'),
    anonymous: undefined,
  };
  return { teamA, teamB, ids, tokens };
}

export function call(
  env: TestEnv,
  token: string | undefined,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  lang = 'en',
) {
  return env.app.inject({
    method,
    url,
    headers: { 'x-lang': lang, ...(token ? { 'x-token': token } : {}) },
    ...(payload ? { payload } : {}),
  });
}
