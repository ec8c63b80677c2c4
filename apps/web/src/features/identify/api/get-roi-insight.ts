import { RoiInsightSchema, type RoiInsight } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ai/roi: the AI label (class, confidence, top three, model) and the measured morphology of one ROI. */
export async function getRoiInsight(roiId: number, options: { signal?: AbortSignal } = {}): Promise<RoiInsight> {
  // Silent: the detail pane says it inline rather than toasting on every ROI looked at.
  const data = await api.get(EP.aiRoi, { query: { roi_id: roiId }, signal: options.signal, silent: true });
  return parseData(RoiInsightSchema, data, { silent: true });
}

export function useRoiInsight(roiId: number | null) {
  return useQuery({
    queryKey: identifyKeys.insight(roiId ?? 0),
    queryFn: ({ signal }) => getRoiInsight(roiId!, { signal }),
    enabled: roiId !== null,
  });
}
