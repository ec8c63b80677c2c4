import { EnhanceResultSchema } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, imageUrl, parseData } from '@/api/client';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /enhance (outside the api prefix): the address of a contrast-enhanced rendering of an ROI, made on demand. */
export async function enhanceRoi(roiId: number, options: { signal?: AbortSignal } = {}): Promise<string> {
  const data = await api.post(EP.enhance, { roi_id: roiId }, { signal: options.signal });
  return imageUrl(parseData(EnhanceResultSchema, data).url);
}

export function useEnhancedUrl(roiId: number | null) {
  return useQuery({
    queryKey: aiKeys.enhanced(roiId ?? 0),
    queryFn: ({ signal }) => enhanceRoi(roiId!, { signal }),
    enabled: roiId !== null,
    // The rendering of an image does not change.
    staleTime: Infinity,
  });
}
