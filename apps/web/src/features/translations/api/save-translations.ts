import type { TranslationSaveBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { langOverridesQueryKey } from '@/api/get-lang-overrides';
import * as EP from '@ipp/contracts/endpoints';

/** A text sets that language's override; null removes it. */
export async function saveTranslations(body: TranslationSaveBody): Promise<void> {
  await api.post(EP.getLangSave, body);
}

export function useSaveTranslations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTranslations,
    // Reloading the overrides also puts the new texts on screen (useTranslationOverrides).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: langOverridesQueryKey }),
  });
}
