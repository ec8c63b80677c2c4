import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ippsQueryKey, viewsQueryKey } from '@/api/query-keys';
import { useLastInsertTime } from '../api/get-last-insert-time';

/**
 * Polls when the newest data arrived and, when that changes, refetches what is drawn from the data (charts,
 * wall, station figures). Returns the time of the newest data (null: none yet; undefined: not known yet).
 */
export function useRefreshOnNewData(): number | null | undefined {
  const queryClient = useQueryClient();
  const { data: at } = useLastInsertTime();
  const seen = useRef<number | null | undefined>(undefined);

  useEffect(() => {
    if (at === undefined) return;
    const previous = seen.current;
    seen.current = at;
    if (previous !== undefined && previous !== at) {
      void queryClient.invalidateQueries({ queryKey: viewsQueryKey });
      void queryClient.invalidateQueries({ queryKey: ippsQueryKey });
    }
  }, [at, queryClient]);

  return at;
}
