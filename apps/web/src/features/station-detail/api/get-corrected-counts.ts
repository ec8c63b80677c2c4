import { CorrectedCountsSchema, type CorrectedCounts } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { viewsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ai/corrected-counts: counts per class over [start, end), the model-labelled part corrected. */
export async function getCorrectedCounts(
  devId: string,
  start: number,
  end: number,
  options: { signal?: AbortSignal } = {},
): Promise<CorrectedCounts> {
  const data = await api.get(EP.aiCorrectedCounts, {
    query: { dev_id: devId, start, end },
    signal: options.signal,
    transfer: true,
  });
  return parseData(CorrectedCountsSchema, data);
}

export function useCorrectedCounts(devId: string | undefined, start: number | undefined, end: number | undefined) {
  return useQuery({
    queryKey: [...viewsQueryKey, 'corrected-counts', devId, start, end],
    queryFn: ({ signal }) => getCorrectedCounts(devId ?? '', start ?? 0, end ?? 0, { signal }),
    enabled: devId !== undefined && start !== undefined && end !== undefined && end > start,
  });
}
