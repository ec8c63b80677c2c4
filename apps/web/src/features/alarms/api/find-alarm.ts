import type { Alarm } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { getAlarms } from '@/api/get-alarms';
import { alarmsQueryKey } from '@/api/query-keys';

/** One alarm by id (a link in an e-mail), if it is of the caller's team (GET /alarm/list?id=); null when not. */
export async function findAlarm(id: number, signal?: AbortSignal): Promise<Alarm | null> {
  const page = await getAlarms({ state: 'all', id, page: 1, limit: 1 }, { signal });
  return page.items[0] ?? null;
}

export function useFindAlarm(id: number | null, options: { enabled: boolean }) {
  return useQuery({
    queryKey: [...alarmsQueryKey, 'find', id],
    queryFn: ({ signal }) => findAlarm(id ?? 0, signal),
    enabled: options.enabled && id !== null,
  });
}
