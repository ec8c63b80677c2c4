/** Lists that several screens change, so one screen can mark another's cached pages stale. */
export const usersQueryKey = ['users'] as const;

/** Instruments: the list, the edit form and the station picker of "Select IPP" all read them. */
export const ippsQueryKey = ['ipps'] as const;

/**
 * Everything computed from the images and telemetry instruments send (overview charts, walls, galleries,
 * station data): refetched together when new data arrives or a favourite changes.
 */
export const viewsQueryKey = ['views'] as const;

/** Alarms: the list, the rules and the header's count. */
export const alarmsQueryKey = ['alarms'] as const;
