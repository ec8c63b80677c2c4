import type { LiveEvent } from '@ipp/contracts';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { LiveState } from '@/api/live-events';
import { alarmsQueryKey, ippsQueryKey, viewsQueryKey } from '@/api/query-keys';
import { useSession } from '@/hooks/use-session';

/** The stream's state and when it last brought something, for the header's indicator. */
let current: { state: LiveState; lastEventAt: number | null } = { state: 'stopped', lastEventAt: null };
const listeners = new Set<() => void>();
function setLive(next: Partial<typeof current>) {
  current = { ...current, ...next };
  for (const listener of listeners) listener();
}

export function useLiveState() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

/** At most one refetch of a kind per window: a busy fleet sends events every second, the pages need not redraw as often. */
const IPP_REFRESH_MS = 1_000;
const DATA_REFRESH_MS = 5_000;

function throttled(run: () => void, ms: number) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    const wait = last + ms - Date.now();
    if (wait <= 0) {
      last = Date.now();
      run();
    } else {
      timer ??= setTimeout(() => {
        timer = null;
        last = Date.now();
        run();
      }, wait);
    }
  };
}

/** What each event makes stale: a station's state its pages; new images the charts, walls and counts. */
export function refresherFor(queryClient: QueryClient) {
  const stations = throttled(() => void queryClient.invalidateQueries({ queryKey: ippsQueryKey }), IPP_REFRESH_MS);
  const data = throttled(() => {
    void queryClient.invalidateQueries({ queryKey: viewsQueryKey });
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    void queryClient.invalidateQueries({ queryKey: ippsQueryKey });
  }, DATA_REFRESH_MS);
  const alarms = throttled(() => void queryClient.invalidateQueries({ queryKey: alarmsQueryKey }), IPP_REFRESH_MS);
  return (events: LiveEvent[]) => {
    if (events.some((e) => e.type === 'alarm')) alarms();
    if (events.some((e) => e.type === 'ipp')) stations();
    if (events.some((e) => e.type === 'roi')) data();
  };
}

const CHANNEL = 'ipp-live-events';

type TabMessage = { kind: 'events'; events: LiveEvent[] } | { kind: 'state'; state: LiveState } | { kind: 'hello' };

/**
 * Keeps the live event stream open while someone is signed in (issue 23): pages showing a station or its data ask
 * for it again within seconds of a device report, without a reload.
 *
 * One tab per browser holds the stream (a Web Lock picks it; when it closes, another takes over) and passes the
 * events and its state to the other tabs (BroadcastChannel): a stream holds an HTTP/1.1 connection for good, and a
 * browser gives one site about six, so a stream per tab would stall every call once six tabs were open. Without
 * those APIs each tab holds its own.
 */
export function useLiveEvents() {
  const queryClient = useQueryClient();
  const { token } = useSession();
  useEffect(() => {
    if (!token) return;
    const abort = new AbortController();
    const refresh = refresherFor(queryClient);
    const receive = (events: LiveEvent[]) => {
      setLive({ lastEventAt: Date.now() });
      refresh(events);
    };
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    let leading: LiveState | null = null;
    const post = (message: TabMessage) => channel?.postMessage(message);
    // Loaded after the shell (its size is budgeted): the stream can wait the moment that takes.
    const hold = async () => {
      const { holdLiveEvents } = await import('@/api/live-events');
      if (abort.signal.aborted) return;
      await holdLiveEvents({
        signal: abort.signal,
        onState: (state) => {
          leading = state;
          setLive({ state });
          post({ kind: 'state', state });
        },
        onEvents: (events) => {
          receive(events);
          post({ kind: 'events', events });
        },
      });
    };
    if (channel && locks) {
      channel.onmessage = (message: MessageEvent<TabMessage>) => {
        const data = message.data;
        if (data.kind === 'events') receive(data.events);
        else if (data.kind === 'state' && leading === null) setLive({ state: data.state });
        else if (data.kind === 'hello' && leading !== null) post({ kind: 'state', state: leading });
      };
      setLive({ state: 'connecting' });
      post({ kind: 'hello' });
      locks.request(CHANNEL, { signal: abort.signal }, () => hold()).catch(() => undefined);
    } else {
      void hold();
    }
    return () => {
      abort.abort();
      channel?.close();
    };
  }, [token, queryClient]);
}
