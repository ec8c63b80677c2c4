import { SettingsSchema, type Settings } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from './client';
import * as EP from '@ipp/contracts/endpoints';

// The configuration page edits these; the user form reads the team limits from them.
export const settingsQueryKey = ['settings', 'index'] as const;

export async function getSettings(options: { signal?: AbortSignal; silent?: boolean } = {}): Promise<Settings> {
  const silent = options.silent ?? false;
  return parseData(SettingsSchema, await api.get(EP.settingIndex, { signal: options.signal, silent }), { silent });
}

export function settingsQueryOptions(options: { silent?: boolean } = {}) {
  return queryOptions({
    queryKey: settingsQueryKey,
    queryFn: ({ signal }) => getSettings({ signal, silent: options.silent }),
  });
}

export function useSettings(options: { silent?: boolean } = {}) {
  return useQuery(settingsQueryOptions(options));
}
