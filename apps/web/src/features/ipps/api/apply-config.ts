import { IppApplyConfigResultSchema, type IppApplyConfigBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { ippsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** Sets some settings on several instruments at once (POST /ipp/apply-config). */
export async function applyConfig(body: IppApplyConfigBody) {
  return parseData(IppApplyConfigResultSchema, await api.post(EP.ippApplyConfig, body));
}

export function useApplyConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyConfig,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ippsQueryKey }),
  });
}
