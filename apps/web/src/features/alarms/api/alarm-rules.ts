import { AlarmRuleSchema, type AlarmRuleSaveBody } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData, requestEnvelope } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';

const RulesSchema = AlarmRuleSchema.array();

export function useAlarmRules() {
  return useQuery({
    queryKey: [...alarmsQueryKey, 'rules'],
    queryFn: async ({ signal }) => parseData(RulesSchema, (await requestEnvelope<unknown>('/alarm/rules', { signal })).data),
  });
}

/** Saving or removing a rule clears its alarms: the lists refresh with the rules. */
export function useSaveAlarmRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlarmRuleSaveBody) => parseData(AlarmRuleSchema, await api.post<unknown>('/alarm/save-rule', body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}

export function useRemoveAlarmRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<unknown>('/alarm/remove-rule', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}
