import { LabelHistorySchema, type LabelHistory } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/label-history: how an ROI arrived and every change of its label (issue 25). */
export async function getLabelHistory(roiId: number, options: { signal?: AbortSignal } = {}): Promise<LabelHistory> {
  const data = await api.get(EP.roiLabelHistory, { query: { roi_id: roiId }, signal: options.signal, silent: true });
  return parseData(LabelHistorySchema, data, { silent: true });
}

export function useLabelHistory(roiId: number | null) {
  return useQuery({
    queryKey: identifyKeys.history(roiId ?? 0),
    queryFn: ({ signal }) => getLabelHistory(roiId!, { signal }),
    enabled: roiId !== null,
  });
}
