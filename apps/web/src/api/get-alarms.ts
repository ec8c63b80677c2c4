import { AlarmSchema, type Alarm, type AlarmListQuery } from '@ipp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getPage, type Page } from './get-page';
import { alarmsQueryKey } from './query-keys';
import * as EP from '@ipp/contracts/endpoints';

const AlarmsSchema = AlarmSchema.array();
/** Live events refresh them; this is the fallback while the stream is cut. */
export const ALARM_POLL_MS = 30_000;

export type AlarmFilter = Pick<AlarmListQuery, 'state' | 'page' | 'limit'> & { ipp_id?: number; id?: number };

/** The latest open alarms, heaviest first (the server's order): the header's drop-down and the overview's card. */
export const LATEST_OPEN_ALARMS: AlarmFilter = { state: 'open', page: 1, limit: 6 };

export function getAlarms(filter: AlarmFilter, options: { signal?: AbortSignal } = {}): Promise<Page<Alarm>> {
  return getPage(EP.alarmList, AlarmsSchema, { ...filter }, options);
}

export function useAlarms(filter: AlarmFilter, options: { enabled?: boolean } = {}) {
  return useQuery<Page<Alarm>>({
    queryKey: [...alarmsQueryKey, 'list', filter],
    queryFn: ({ signal }) => getAlarms(filter, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: ALARM_POLL_MS,
    enabled: options.enabled ?? true,
  });
}
