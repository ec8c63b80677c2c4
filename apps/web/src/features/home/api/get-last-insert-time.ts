import { LastInsertSchema, type LastInsert } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

/** How often the overview asks whether new data has arrived. */
export const NEW_DATA_POLL_MS = 30_000;

/**
 * GET /dashboard/get-last-insert-time: when the newest image was captured (`at`) and when an image last arrived
 * (`received_at`); null: none yet.
 */
export async function getLastInsertTime(options: { signal?: AbortSignal } = {}): Promise<LastInsert> {
  // Silent: a missed poll is retried in 30 s, and a toast every 30 s while offline would drown the page.
  const data = await api.get(EP.dashboardGetLastInsertTime, { signal: options.signal, silent: true });
  return parseData(LastInsertSchema, data, { silent: true });
}

export function useLastInsertTime() {
  return useQuery({
    queryKey: ['dashboard', 'last-insert-time'],
    queryFn: ({ signal }) => getLastInsertTime({ signal }),
    refetchInterval: NEW_DATA_POLL_MS,
    staleTime: 0,
  });
}
