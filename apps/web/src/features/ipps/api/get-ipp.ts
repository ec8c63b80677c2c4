import { IppSchema, type Ipp } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { ippsQueryKey } from '@/api/query-keys';
import { pollWhile } from '@/lib/live-poll';
import * as EP from '@ipp/contracts/endpoints';

export async function getIpp(id: number, options: { signal?: AbortSignal } = {}): Promise<Ipp> {
  return parseData(IppSchema, await api.post(EP.siteIppOne, { id }, { signal: options.signal }));
}

export function ippQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...ippsQueryKey, 'one', id],
    queryFn: ({ signal }) => getIpp(id, { signal }),
    // The form starts from what the server holds now, not from a copy cached minutes ago, and its states and readings
    // follow the device: often while a setting waits to be applied.
    staleTime: 0,
    refetchInterval: (query) => pollWhile((query.state.data?.pending.length ?? 0) > 0),
  });
}

export function useIpp(id: number | null) {
  return useQuery({ ...ippQueryOptions(id ?? 0), enabled: id !== null });
}
