import { TranslationUploadResultSchema, type TranslationUploadResult } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { langOverridesQueryKey } from '@/api/get-lang-overrides';
import * as EP from '@ipp/contracts/endpoints';

/** JSON ({"key": {"zh", "en"}} or {"zh": {...}, "en": {...}}) or CSV (key,zh,en). */
export const TRANSLATION_FILE_ACCEPT = '.json,.csv,application/json,text/csv';

/** dryRun answers what the file would change without applying it; the same file is then sent without it. */
export async function uploadTranslations({ file, dryRun }: { file: File; dryRun: boolean }): Promise<TranslationUploadResult> {
  const body = new FormData();
  body.append('file', file);
  const data = await api.post(EP.uploadIndex, body, {
    query: { action: 'language', dry_run: dryRun ? 1 : undefined },
    transfer: true,
  });
  return parseData(TranslationUploadResultSchema, data);
}

export function useUploadTranslations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadTranslations,
    onSuccess: async (result) => {
      if (result.applied) await queryClient.invalidateQueries({ queryKey: langOverridesQueryKey });
    },
  });
}
