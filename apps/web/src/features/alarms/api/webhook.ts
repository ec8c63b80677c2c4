import { AlarmWebhookSaveResultSchema, AlarmWebhookSchema, type AlarmWebhookSaveBody } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData, requestEnvelope } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';

const webhookKey = [...alarmsQueryKey, 'webhook'] as const;

/** The team's webhook and how its deliveries fare (administrators). */
export function useAlarmWebhook(enabled: boolean) {
  return useQuery({
    queryKey: webhookKey,
    queryFn: async ({ signal }) =>
      parseData(AlarmWebhookSchema, (await requestEnvelope<unknown>('/alarm/webhook', { signal })).data),
    enabled,
    refetchInterval: 30_000,
  });
}

export function useSaveAlarmWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlarmWebhookSaveBody) =>
      parseData(AlarmWebhookSaveResultSchema, await api.post<unknown>('/alarm/save-webhook', body)),
    onSuccess: (result) => queryClient.setQueryData(webhookKey, result.webhook),
  });
}
