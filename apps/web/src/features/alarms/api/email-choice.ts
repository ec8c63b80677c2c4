import { AlarmEmailSettingSchema, AlarmTestResultSchema, type AlarmEmailChoice } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const key = [...alarmsQueryKey, 'my-email'] as const;

/** Which alarms the signed-in user is e-mailed about, the address, and whether the server sends e-mail. */
export function useAlarmEmailSetting() {
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => parseData(AlarmEmailSettingSchema, await api.get(EP.alarmMyEmail, { signal })),
  });
}

export function useSaveAlarmEmailChoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (alarm_email: AlarmEmailChoice) =>
      parseData(AlarmEmailSettingSchema, await api.post(EP.alarmSaveMyEmail, { alarm_email })),
    onSuccess: (setting) => queryClient.setQueryData(key, setting),
  });
}

/** Sends a test alarm e-mail to the caller's own address now. */
export function useTestEmail() {
  return useMutation({
    mutationFn: async () => parseData(AlarmTestResultSchema, await api.post(EP.alarmTestEmail)),
  });
}
