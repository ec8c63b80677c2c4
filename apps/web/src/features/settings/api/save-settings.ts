import { SettingsSchema, type Settings, type SettingsSaveBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { settingsQueryKey } from '@/api/get-settings';
import { settingsInitQueryKey } from '@/api/get-settings-init';
import * as EP from '@ipp/contracts/endpoints';

/** Any subset of the settings (superadmin only); the form reports failures. */
export async function saveSettings(body: SettingsSaveBody): Promise<Settings> {
  return parseData(SettingsSchema, await api.post(EP.settingSave, body, { silent: true }), { silent: true });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: async (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
      // Title, idle minutes and default language of this tab follow at once.
      await queryClient.invalidateQueries({ queryKey: settingsInitQueryKey });
    },
  });
}
