import type { LiveEvent } from '@ipp/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { refresherFor } from '@/app/layout/use-live-events';
import { holdLiveEvents, parseSse, type LiveState } from './live-events';

const ipp = (id: number): LiveEvent => ({ type: 'ipp', ipp_id: id, reasons: ['telemetry'], at: 1 });
const sse = (e: LiveEvent) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

function streamOf(chunks: string[], keepOpen = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      if (!keepOpen) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('live events in the browser', () => {
  it('reads events split anywhere across chunks, skipping comments and lines it cannot read', () => {
    const text = `retry: 3000\n: connected\n\n${sse(ipp(1))}data: {"type":"nonsense"}\n\n: 123\n\n${sse(ipp(2))}`;
    const cut = text.length - 7;
    const first = parseSse(text.slice(0, cut));
    expect(first.events).toEqual([ipp(1)]);
    const second = parseSse(first.rest + text.slice(cut));
    expect(second.events).toEqual([ipp(2)]);
    expect(second.rest).toBe('');
  });

  it('reconnects after the stream ends or fails, with growing pauses, and stops when the session is gone', async () => {
    vi.useFakeTimers();
    const states: LiveState[] = [];
    const got: LiveEvent[] = [];
    const answers: (() => Response | Promise<Response>)[] = [
      () => streamOf([sse(ipp(1)).slice(0, 10), sse(ipp(1)).slice(10)]),
      () => Promise.reject(new TypeError('network down')),
      () => new Response('{}', { status: 503 }),
      () => streamOf([sse(ipp(2))]),
      () => new Response('{"code":1010}', { status: 401 }),
    ];
    const fetchImpl = vi.fn(async () => answers.shift()!());
    const done = holdLiveEvents({
      signal: new AbortController().signal,
      onState: (s) => states.push(s),
      onEvents: (events) => got.push(...events),
      fetchImpl: fetchImpl as unknown as typeof fetch,
    });
    await vi.advanceTimersByTimeAsync(3000); // after a normal end
    await vi.advanceTimersByTimeAsync(1000); // after the network failure
    await vi.advanceTimersByTimeAsync(2000); // after the 503, twice as long
    await vi.advanceTimersByTimeAsync(3000);
    await done;
    vi.useRealTimers();
    expect(got).toEqual([ipp(1), ipp(2)]);
    expect(fetchImpl).toHaveBeenCalledTimes(5);
    expect(states.filter((s) => s === 'live')).toHaveLength(2);
    expect(states.at(-1)).toBe('stopped');
  });

  it('refreshes the stations at most once a second and the data at most every 5 s however many events come', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const refresh = refresherFor(client);
    const roi: LiveEvent = { type: 'roi', ipp_id: 1, count: 1, last_roi_id: 5, at: 1 };
    for (let i = 0; i < 20; i++) {
      refresh([ipp(1), roi]);
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(5000);
    vi.useRealTimers();
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    // 2 s of events: the stations 2–3 times (at once, then once a second, then the trailing one); the data twice.
    expect(keys.filter((k) => k === '["views"]')).toHaveLength(2);
    const stations = keys.filter((k) => k === '["ipps"]').length - 2; // the data refreshes include the stations
    expect(stations).toBeGreaterThanOrEqual(2);
    expect(stations).toBeLessThanOrEqual(3);
  });
});
