import { ReferenceAnswerSchema, type ReferenceAnswer } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /folders/query (outside the api prefix): the reference classes an ROI is like, by its nearest reference ROIs. */
export async function queryReference(
  roiId: number,
  groupId?: number,
  options: { signal?: AbortSignal } = {},
): Promise<ReferenceAnswer> {
  const data = await api.post(EP.foldersQuery, { roi_id: roiId, group_id: groupId }, { signal: options.signal, silent: true });
  return parseData(ReferenceAnswerSchema, data, { silent: true });
}

export function useReferenceClasses(roiId: number | null, groupId?: number) {
  return useQuery({
    queryKey: identifyKeys.reference(roiId ?? 0, groupId),
    queryFn: ({ signal }) => queryReference(roiId!, groupId, { signal }),
    enabled: roiId !== null,
  });
}
