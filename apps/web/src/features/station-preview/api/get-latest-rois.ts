import { RoiSummarySchema, type RoiSummary } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { viewsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const RoiListSchema = RoiSummarySchema.array();

/** How many of a station's latest images the preview shows. */
export const LATEST_LIMIT = 24;

/** GET /views/rois: a station's latest images, newest first. */
export async function getLatestRois(ippId: number, options: { signal?: AbortSignal } = {}): Promise<RoiSummary[]> {
  const query = { ipp_id: ippId, limit: LATEST_LIMIT };
  return parseData(RoiListSchema, await api.get(EP.viewsRois, { query, signal: options.signal }));
}

export function useLatestRois(ippId: number | undefined) {
  return useQuery({
    queryKey: [...viewsQueryKey, 'rois', ippId],
    queryFn: ({ signal }) => getLatestRois(ippId ?? 0, { signal }),
    enabled: ippId !== undefined,
  });
}
