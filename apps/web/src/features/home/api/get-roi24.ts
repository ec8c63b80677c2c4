import { Roi24Schema, type Roi24 } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { viewsQueryKey } from '@/api/query-keys';
import { viewerTz } from '@/lib/timezone';
import * as EP from '@ipp/contracts/endpoints';

/** GET /views/roi24: ROIs per hour per station over the last 24 hours, followed stations first. */
export async function getRoi24(options: { signal?: AbortSignal } = {}): Promise<Roi24> {
  return parseData(Roi24Schema, await api.get(EP.viewsRoi24, { query: { tz: viewerTz() }, signal: options.signal }));
}

export function useRoi24() {
  return useQuery(queryOptions({ queryKey: [...viewsQueryKey, 'roi24'], queryFn: ({ signal }) => getRoi24({ signal }) }));
}
