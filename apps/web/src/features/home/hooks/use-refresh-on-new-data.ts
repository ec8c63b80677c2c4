import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ippsQueryKey, viewsQueryKey } from '@/api/query-keys';
import { useLastInsertTime } from '../api/get-last-insert-time';

/**
 * Polls when the newest data arrived and, when that changes, refetches what is drawn from the data (charts,
 * wall, station figures). Returns the capture time of the newest image (null: none yet; undefined: not known yet).
 */
export function useRefreshOnNewData(): number | null | undefined {
  const queryClient = useQueryClient();
  const { data } = useLastInsertTime();
  // Arrival, not capture, says something new came: a backlog of older images changes the charts too.
  const arrived = data === undefined ? undefined : data.received_at;
  const seen = useRef<number | null | undefined>(undefined);

  useEffect(() => {
    if (arrived === undefined) return;
    const previous = seen.current;
    seen.current = arrived;
    if (previous !== undefined && previous !== arrived) {
      void queryClient.invalidateQueries({ queryKey: viewsQueryKey });
      void queryClient.invalidateQueries({ queryKey: ippsQueryKey });
    }
  }, [arrived, queryClient]);

  return data?.at;
}
