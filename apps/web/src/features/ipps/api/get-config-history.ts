import { IppConfigChangeSchema, type IppConfigChange } from '@ipp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getPage, type Page } from '@/api/get-page';
import { ippsQueryKey } from '@/api/query-keys';
import { pollWhile } from '@/lib/live-poll';
import * as EP from '@ipp/contracts/endpoints';

const HistorySchema = IppConfigChangeSchema.array();

export function getConfigHistory(id: number, page: number, limit: number, options: { signal?: AbortSignal } = {}) {
  return getPage(EP.ippConfigHistory, HistorySchema, { id, page, limit }, options);
}

/**
 * An instrument's configuration versions, newest first. Under the instruments' key, so a save or an "apply to several"
 * refreshes it; polled like the form while the newest version is pending, to show when the device applies it.
 */
export function useConfigHistory(id: number, page: number, limit: number) {
  return useQuery<Page<IppConfigChange>>({
    queryKey: [...ippsQueryKey, 'history', id, page, limit],
    queryFn: ({ signal }) => getConfigHistory(id, page, limit, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollWhile(query.state.data?.items.some((row) => row.state === 'pending') ?? false),
  });
}
