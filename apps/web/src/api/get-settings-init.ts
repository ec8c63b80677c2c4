import type { SettingsInit } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { loadShellSchemas, parseShellData } from './parse-shell-data';
import * as EP from '@ipp/contracts/endpoints';

export const settingsInitQueryKey = ['settings', 'init'] as const;

/** Public: title, logo, idle minutes and default language, needed before and after sign-in. */
export async function getSettingsInit(options: { signal?: AbortSignal } = {}): Promise<SettingsInit> {
  // Silent: every user of this answer has a built-in fallback, so a failure must not interrupt anyone.
  void loadShellSchemas();
  const data = await api.get(EP.settingGetSetInit, { signal: options.signal, silent: true });
  return parseShellData((s) => s.SettingsInitSchema, data, { silent: true });
}

export function settingsInitQueryOptions() {
  return queryOptions({
    queryKey: settingsInitQueryKey,
    queryFn: ({ signal }) => getSettingsInit({ signal }),
    staleTime: 10 * 60_000,
    // Every part of the console has a fallback; one failure is not retried by each component that mounts.
    retryOnMount: false,
  });
}

export function useSettingsInit() {
  return useQuery(settingsInitQueryOptions());
}
