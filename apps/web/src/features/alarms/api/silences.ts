import { AlarmSilenceSchema, type AlarmSilenceSaveBody } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const SilencesSchema = AlarmSilenceSchema.array();

/** A team's silences running now or planned: the caller's own, or (superadmin) the team named. */
export function useAlarmSilences(groupId?: number) {
  return useQuery({
    queryKey: [...alarmsQueryKey, 'silences', groupId ?? null],
    queryFn: async ({ signal }) =>
      parseData(
        SilencesSchema,
        await api.get(EP.alarmSilences, { signal, query: groupId === undefined ? {} : { group_id: groupId } }),
      ),
    // A silence ends by itself: the list follows the clock.
    refetchInterval: 60_000,
  });
}

/** A silence changes which alarms show as silenced: the lists refresh with it. */
export function useSaveSilence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlarmSilenceSaveBody) => parseData(AlarmSilenceSchema, await api.post(EP.alarmSaveSilence, body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}

export function useEndSilence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post(EP.alarmEndSilence, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}
