import { AlarmSummarySchema } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from './client';
import { ALARM_POLL_MS } from './get-alarms';
import { alarmsQueryKey } from './query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** The team's count of open alarms: active ones by severity, acknowledged and pending (the header's bell, the overview). */
export function useAlarmSummary() {
  return useQuery({
    queryKey: [...alarmsQueryKey, 'summary'],
    queryFn: async ({ signal }) => parseData(AlarmSummarySchema, await api.get(EP.alarmSummary, { signal })),
    refetchInterval: ALARM_POLL_MS,
  });
}
