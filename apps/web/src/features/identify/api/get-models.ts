import { ModelListSchema, type ModelList } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { aiKeys, cleanQuery } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ai/models: the team's classifier versions and which one labels new ROIs (administrators). */
export async function getModels(groupId?: number, options: { signal?: AbortSignal } = {}): Promise<ModelList> {
  const data = await api.get(EP.aiModels, { query: cleanQuery({ group_id: groupId }), signal: options.signal });
  return parseData(ModelListSchema, data);
}

/** Refreshed every few seconds while a version is still training. */
export function useModels(groupId?: number) {
  return useQuery({
    queryKey: aiKeys.models(groupId),
    queryFn: ({ signal }) => getModels(groupId, { signal }),
    refetchInterval: (query) => (query.state.data?.items.some((model) => model.status === 'training') ? 3_000 : false),
  });
}
