import { AlarmSchema, AlarmSummarySchema, type Alarm, type AlarmListQuery } from '@ipp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { getPage, type Page } from '@/api/get-page';
import { alarmsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const AlarmsSchema = AlarmSchema.array();
/** Live events refresh them; this is the fallback while the stream is cut. */
const POLL_MS = 30_000;

export type AlarmFilter = Pick<AlarmListQuery, 'state' | 'page' | 'limit'> & { ipp_id?: number };

export function useAlarms(filter: AlarmFilter) {
  return useQuery<Page<Alarm>>({
    queryKey: [...alarmsQueryKey, 'list', filter],
    queryFn: ({ signal }) => getPage(EP.alarmList, AlarmsSchema, { ...filter }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: POLL_MS,
  });
}

/** The header's count of the team's active and acknowledged alarms. */
export function useAlarmSummary() {
  return useQuery({
    queryKey: [...alarmsQueryKey, 'summary'],
    queryFn: async ({ signal }) => parseData(AlarmSummarySchema, await api.get(EP.alarmSummary, { signal })),
    refetchInterval: POLL_MS,
  });
}
