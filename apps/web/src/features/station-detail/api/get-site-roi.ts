import { SiteRoiSchema, type Period, type SiteRoi } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { viewsQueryKey } from '@/api/query-keys';
import { viewerTz } from '@/lib/timezone';
import { PERIOD_POINTS } from '../utils/periods';
import * as EP from '@ipp/contracts/endpoints';

export function siteQuery(devId: string, period: Period) {
  return { dev_id: devId, period, points: PERIOD_POINTS[period], tz: viewerTz() };
}

/** GET /roi/get-site-roi: one station's histogram, top-6 classes and concentration over a period. */
export async function getSiteRoi(devId: string, period: Period, options: { signal?: AbortSignal } = {}): Promise<SiteRoi> {
  // A long period may take minutes on a big station: the transfer timeout, not the 50 s one.
  const data = await api.get(EP.roiGetSiteRoi, {
    query: siteQuery(devId, period),
    signal: options.signal,
    transfer: true,
  });
  return parseData(SiteRoiSchema, data);
}

export function useSiteRoi(devId: string | undefined, period: Period) {
  return useQuery({
    queryKey: [...viewsQueryKey, 'site-roi', devId, period],
    queryFn: ({ signal }) => getSiteRoi(devId ?? '', period, { signal }),
    enabled: devId !== undefined,
  });
}
