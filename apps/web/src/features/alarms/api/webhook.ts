import {
  AlarmTestResultSchema,
  AlarmWebhookSaveResultSchema,
  AlarmWebhookSchema,
  type AlarmWebhookSaveBody,
} from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const webhookKey = (groupId?: number) => [...alarmsQueryKey, 'webhook', groupId ?? null] as const;
const teamQuery = (groupId?: number) => (groupId === undefined ? {} : { group_id: groupId });

/** The team's webhook and how its deliveries fare (administrators; the superadmin names the team). */
export function useAlarmWebhook(enabled: boolean, groupId?: number) {
  return useQuery({
    queryKey: webhookKey(groupId),
    queryFn: async ({ signal }) =>
      parseData(AlarmWebhookSchema, await api.get(EP.alarmWebhook, { signal, query: teamQuery(groupId) })),
    enabled,
    refetchInterval: 30_000,
  });
}

export function useSaveAlarmWebhook(groupId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlarmWebhookSaveBody) =>
      parseData(AlarmWebhookSaveResultSchema, await api.post(EP.alarmSaveWebhook, { ...body, ...teamQuery(groupId) })),
    onSuccess: (result) => queryClient.setQueryData(webhookKey(groupId), result.webhook),
  });
}

/** Sends a test notice to the team's webhook now (administrators; the superadmin names the team). */
export function useTestWebhook(groupId?: number) {
  return useMutation({
    mutationFn: async () =>
      parseData(AlarmTestResultSchema, await api.post(EP.alarmTestWebhook, groupId === undefined ? {} : { group_id: groupId })),
  });
}
