import { SystemInfoSchema, type SystemInfo } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

export async function getSystemInfo(options: { signal?: AbortSignal } = {}): Promise<SystemInfo> {
  return parseData(SystemInfoSchema, await api.get(EP.spiInfoIndex, options));
}

export function systemInfoQueryOptions() {
  return queryOptions({ queryKey: ['settings', 'system-info'], queryFn: ({ signal }) => getSystemInfo({ signal }) });
}

export function useSystemInfo(options: { enabled?: boolean } = {}) {
  return useQuery({ ...systemInfoQueryOptions(), enabled: options.enabled ?? true });
}
