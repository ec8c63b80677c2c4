import { SettingsSchema, type Settings } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { settingsQueryKey } from '@/api/get-settings';
import { settingsInitQueryKey } from '@/api/get-settings-init';
import * as EP from '@ipp/contracts/endpoints';

/** Server limits (POST /setting/logo); checked here too so nobody waits for a refusal. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 1024 * 1024;

export async function uploadLogo({ file, signal }: { file: File; signal?: AbortSignal }): Promise<Settings> {
  const body = new FormData();
  body.append('file', file);
  // transfer: the 600 s timeout of uploads, not the 50 s of ordinary calls.
  return parseData(SettingsSchema, await api.post(EP.settingLogoSave, body, { transfer: true, signal }));
}

export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadLogo,
    onSuccess: async (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
      await queryClient.invalidateQueries({ queryKey: settingsInitQueryKey });
    },
  });
}
