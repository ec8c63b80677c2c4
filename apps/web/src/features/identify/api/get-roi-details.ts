import { RoiDetailsSchema } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/get-roi-details: an ROI the loaded pages do not hold (reached with previous/next). */
export async function getRoiSummary(roiId: number, options: { signal?: AbortSignal } = {}) {
  const data = await api.get(EP.roiGetRoiDetails, { query: { roi_id: roiId }, signal: options.signal });
  return parseData(RoiDetailsSchema, data).roi;
}

export function useRoiSummary(roiId: number | null) {
  return useQuery({
    queryKey: identifyKeys.details(roiId ?? 0),
    queryFn: ({ signal }) => getRoiSummary(roiId!, { signal }),
    enabled: roiId !== null,
  });
}
