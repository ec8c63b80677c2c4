/** Lists that several screens change, so one screen can mark another's cached pages stale. */
export const usersQueryKey = ['users'] as const;
