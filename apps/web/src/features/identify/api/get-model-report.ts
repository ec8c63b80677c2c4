import { ModelReportSchema, type ModelReport } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /ai/model/report: a model version's cross-validation report (administrators). */
export async function getModelReport(modelId: number, options: { signal?: AbortSignal } = {}): Promise<ModelReport> {
  const data = await api.get(EP.aiModelReport, { query: { model_id: modelId }, signal: options.signal });
  return parseData(ModelReportSchema, data);
}

/** A report never changes once the model is trained. */
export function useModelReport(modelId: number | null) {
  return useQuery({
    queryKey: aiKeys.report(modelId ?? 0),
    queryFn: ({ signal }) => getModelReport(modelId!, { signal }),
    enabled: modelId !== null,
    staleTime: Infinity,
  });
}
