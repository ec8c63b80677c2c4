import { ThresholdsSchema, type ThresholdsBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /ai/thresholds: a new default and per-class values (null removes a class's own value); answers the whole set. */
export async function saveThresholds(body: ThresholdsBody) {
  return parseData(ThresholdsSchema, await api.post(EP.aiThresholdsSave, body));
}

export function useSaveThresholds(groupId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveThresholds,
    onSuccess: (saved) => queryClient.setQueryData(aiKeys.thresholds(groupId), saved),
  });
}
