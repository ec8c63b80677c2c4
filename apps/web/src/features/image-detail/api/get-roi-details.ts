import { RoiDetailsSchema, type RoiDetails } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

export const roiDetailsKey = (roiId: number) => ['roi', 'details', roiId] as const;

/** GET /roi/get-roi-details: one image, its neighbours and the instrument's state when it was captured. */
export async function getRoiDetails(roiId: number, options: { signal?: AbortSignal } = {}): Promise<RoiDetails> {
  // Silent: the page says "No image resource" or shows the failure with Retry itself.
  const data = await api.get(EP.roiGetRoiDetails, { query: { roi_id: roiId }, signal: options.signal, silent: true });
  return parseData(RoiDetailsSchema, data, { silent: true });
}

export function roiDetailsQueryOptions(roiId: number) {
  return queryOptions({ queryKey: roiDetailsKey(roiId), queryFn: ({ signal }) => getRoiDetails(roiId, { signal }) });
}

export function useRoiDetails(roiId: number | null) {
  return useQuery({ ...roiDetailsQueryOptions(roiId ?? 0), enabled: roiId !== null });
}
