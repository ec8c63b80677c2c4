import { SimilarSchema, type Similar } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

export const SIMILAR_LIMIT = 24;

/** GET /ai/similar: "more like this", the team's ROIs nearest to one by feature vector. */
export async function getSimilar(roiId: number, limit: number, options: { signal?: AbortSignal } = {}): Promise<Similar> {
  const data = await api.get(EP.aiSimilar, { query: { roi_id: roiId, limit }, signal: options.signal, silent: true });
  return parseData(SimilarSchema, data, { silent: true });
}

export function useSimilar(roiId: number | null, limit = SIMILAR_LIMIT) {
  return useQuery({
    queryKey: identifyKeys.similar(roiId ?? 0, limit),
    queryFn: ({ signal }) => getSimilar(roiId!, limit, { signal }),
    enabled: roiId !== null,
  });
}
