import { ThresholdsSchema, type Thresholds } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { aiKeys, cleanQuery } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ai/thresholds: the team's default confidence threshold and its per-class overrides. */
export async function getThresholds(groupId?: number, options: { signal?: AbortSignal } = {}): Promise<Thresholds> {
  const data = await api.get(EP.aiThresholds, { query: cleanQuery({ group_id: groupId }), signal: options.signal });
  return parseData(ThresholdsSchema, data);
}

export function useThresholds(groupId?: number) {
  return useQuery({ queryKey: aiKeys.thresholds(groupId), queryFn: ({ signal }) => getThresholds(groupId, { signal }) });
}
