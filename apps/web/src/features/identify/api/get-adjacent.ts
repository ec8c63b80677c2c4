import { AdjacentSchema, type AdjacentQuery } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { cleanQuery, identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/get-adjacent-roi: the neighbours of one ROI under the current filters. Silent (spec §8). */
export async function getAdjacent(query: AdjacentQuery, options: { signal?: AbortSignal } = {}) {
  const data = await api.get(EP.roiGetAdjacentRoi, {
    query: cleanQuery(query),
    signal: options.signal,
    silent: true,
  });
  return parseData(AdjacentSchema, data, { silent: true });
}

export function useAdjacent(query: AdjacentQuery | null) {
  return useQuery({
    queryKey: identifyKeys.adjacent(query ?? {}),
    queryFn: ({ signal }) => getAdjacent(query!, { signal }),
    enabled: query !== null,
  });
}
