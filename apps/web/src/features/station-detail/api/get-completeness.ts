import { CompletenessSchema, type Completeness, type Period } from '@ipp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { ippsQueryKey } from '@/api/query-keys';
import { viewerTz } from '@/lib/timezone';
import { TREND_POINTS } from './get-telemetry-trend';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ipp/completeness: a station's images expected against received over a period, bucketed like the trends. */
export async function getCompleteness(devId: string, period: Period, options: { signal?: AbortSignal } = {}) {
  const data = await api.get(EP.ippCompleteness, {
    query: { dev_id: devId, period, points: TREND_POINTS[period], tz: viewerTz() },
    signal: options.signal,
    transfer: true,
  });
  return parseData(CompletenessSchema, data);
}

/** Under the instruments' key: a report or an image marks it stale, so an open chart follows the station live. */
export function useCompleteness(devId: string | undefined, period: Period) {
  return useQuery<Completeness>({
    queryKey: [...ippsQueryKey, 'completeness', devId, period],
    queryFn: ({ signal }) => getCompleteness(devId ?? '', period, { signal }),
    enabled: devId !== undefined,
    placeholderData: keepPreviousData,
  });
}
