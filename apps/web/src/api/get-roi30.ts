import { Roi30Schema, type Roi30 } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { viewerTz } from '@/lib/timezone';
import { api, parseData } from './client';
import { viewsQueryKey } from './query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /views/roi30: the last 30 days by local day for every visible station, or for one (`ippId`). */
export async function getRoi30(ippId: number | undefined, options: { signal?: AbortSignal } = {}): Promise<Roi30> {
  const query = { tz: viewerTz(), ipp_id: ippId };
  return parseData(Roi30Schema, await api.get(EP.viewsRoi30, { query, signal: options.signal }));
}

export function roi30QueryOptions(ippId?: number) {
  return queryOptions({
    queryKey: [...viewsQueryKey, 'roi30', ippId ?? 'all'],
    queryFn: ({ signal }) => getRoi30(ippId, { signal }),
  });
}

export function useRoi30(ippId?: number, options: { enabled?: boolean } = {}) {
  return useQuery({ ...roi30QueryOptions(ippId), enabled: options.enabled ?? true });
}
