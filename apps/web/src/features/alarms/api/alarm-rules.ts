import { AlarmRuleSchema, type AlarmRuleSaveBody } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const RulesSchema = AlarmRuleSchema.array();

/** A team's rules: the caller's own, or (superadmin) the team named. */
export function useAlarmRules(groupId?: number) {
  return useQuery({
    queryKey: [...alarmsQueryKey, 'rules', groupId ?? null],
    queryFn: async ({ signal }) =>
      parseData(RulesSchema, await api.get(EP.alarmRules, { signal, query: groupId === undefined ? {} : { group_id: groupId } })),
  });
}

/** Saving or removing a rule clears its alarms: the lists refresh with the rules. */
export function useSaveAlarmRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlarmRuleSaveBody) => parseData(AlarmRuleSchema, await api.post(EP.alarmSaveRule, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}

export function useRemoveAlarmRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post(EP.alarmRemoveRule, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}
