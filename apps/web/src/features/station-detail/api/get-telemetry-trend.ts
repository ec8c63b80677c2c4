import { TelemetryTrendSchema, type Period, type TelemetryTrend } from '@ipp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { ippsQueryKey } from '@/api/query-keys';
import { viewerTz } from '@/lib/timezone';
import * as EP from '@ipp/contracts/endpoints';

/**
 * Buckets per period: hourly up to a week, then 3-hourly, then daily (the server rounds to whole hours and, from
 * half a day, to whole local days), so a year is 365 daily points.
 */
export const TREND_POINTS: Readonly<Record<Period, number>> = {
  '24h': 24,
  '3d': 72,
  '7d': 168,
  '15d': 120,
  '1m': 240,
  '3m': 90,
  '6m': 183,
  '1y': 365,
  all: 365,
};

/** GET /ipp/telemetry-trend: every numeric telemetry series of a station over a period. */
export async function getTelemetryTrend(devId: string, period: Period, options: { signal?: AbortSignal } = {}) {
  const data = await api.get(EP.ippTelemetryTrend, {
    query: { dev_id: devId, period, points: TREND_POINTS[period], tz: viewerTz() },
    signal: options.signal,
    transfer: true,
  });
  return parseData(TelemetryTrendSchema, data);
}

/** Under the instruments' key: a telemetry report marks it stale, so an open chart follows the station live. */
export function useTelemetryTrend(devId: string | undefined, period: Period) {
  return useQuery<TelemetryTrend>({
    queryKey: [...ippsQueryKey, 'telemetry-trend', devId, period],
    queryFn: ({ signal }) => getTelemetryTrend(devId ?? '', period, { signal }),
    enabled: devId !== undefined,
    placeholderData: keepPreviousData,
  });
}
