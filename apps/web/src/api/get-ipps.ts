import { IppSchema, type Ipp, type IppIndexQuery } from '@ipp/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pollWhile } from '@/lib/live-poll';
import { getPage, type Page } from './get-page';
import { ippsQueryKey } from './query-keys';
import * as EP from '@ipp/contracts/endpoints';

// The instrument list pages through these; "Select IPP" lists a team's stations from them.
const IppListSchema = IppSchema.array();

/** The largest page the server gives: every station of a team in one pick list. */
export const ALL_IPPS_LIMIT = 1000;

export function getIpps(query: Partial<IppIndexQuery>, options: { signal?: AbortSignal } = {}): Promise<Page<Ipp>> {
  return getPage(EP.ippIndex, IppListSchema, query, options);
}

export function ippsQueryOptions(query: Partial<IppIndexQuery>) {
  return queryOptions({
    queryKey: [...ippsQueryKey, 'list', query],
    queryFn: ({ signal }) => getIpps(query, { signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * `live`: asked again every few seconds while some instrument has a setting to apply, else about as often as
 * instruments report (the instrument list follows the devices).
 */
export function useIpps(query: Partial<IppIndexQuery>, options: { enabled?: boolean; live?: boolean } = {}) {
  return useQuery({
    ...ippsQueryOptions(query),
    enabled: options.enabled ?? true,
    refetchInterval: options.live ? (q) => pollWhile(q.state.data?.items.some((ipp) => ipp.pending.length > 0) ?? false) : false,
  });
}
