/** Lists that several screens change, so one screen can mark another's cached pages stale. */
export const usersQueryKey = ['users'] as const;

/** Instruments: the list, the edit form and the station picker of "Select IPP" all read them. */
export const ippsQueryKey = ['ipps'] as const;
