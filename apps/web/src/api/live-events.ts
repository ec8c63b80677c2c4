import type { LiveEvent } from '@ipp/contracts';
import * as EP from '@ipp/contracts/endpoints';
import { apiUrl, buildHeaders } from './client';

/**
 * The shape check of an event, by hand: this module is in the console's shell (it runs on every page), which zod would
 * make heavier than its budget. Only what the console reads is checked.
 */
function isLiveEvent(value: unknown): value is LiveEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  if (typeof e.ipp_id !== 'number' || typeof e.at !== 'number') return false;
  if (e.type === 'ipp') return Array.isArray(e.reasons);
  if (e.type === 'alarm') return true;
  return e.type === 'roi' && typeof e.count === 'number' && typeof e.last_roi_id === 'number';
}

/** Splits a Server-Sent Events text into the events it completes and the rest (an event still arriving). */
export function parseSse(buffer: string): { events: LiveEvent[]; rest: string } {
  const events: LiveEvent[] = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      const parsed = JSON.parse(data) as unknown;
      if (isLiveEvent(parsed)) events.push(parsed);
    } catch {
      // A line this version cannot read is skipped; the pages' polling covers it.
    }
  }
  return { events, rest };
}

export type LiveState = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface LiveOptions {
  onEvents: (events: LiveEvent[]) => void;
  onState: (state: LiveState) => void;
  signal: AbortSignal;
  /** Pauses between attempts after failures: 1 s, doubling, at most this. */
  maxBackoffMs?: number;
  fetchImpl?: typeof fetch;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal.addEventListener('abort', wake, { once: true });
  });

/**
 * Holds the live event stream (GET /api/events) open with the session's token, reconnecting when it ends or fails:
 * 3 s after a normal end (the server ends streams every half hour), 1 s doubling up to `maxBackoffMs` after failures.
 * Stops when the server says the session is gone (the next ordinary call then signs the user out) or on abort.
 * Meanwhile the pages keep polling at their usual pace, so a cut stream costs freshness, not correctness.
 */
export async function holdLiveEvents({ onEvents, onState, signal, maxBackoffMs = 30_000, fetchImpl = fetch }: LiveOptions) {
  let backoff = 1000;
  while (!signal.aborted) {
    onState('connecting');
    try {
      const response = await fetchImpl(apiUrl(EP.events), { headers: buildHeaders(), signal, cache: 'no-store' });
      if (response.status === 401) {
        onState('stopped');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`live events: HTTP ${response.status}`);
      onState('live');
      backoff = 1000;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const { events, rest } = parseSse(buffer + value);
        buffer = rest;
        if (events.length > 0) onEvents(events);
      }
      if (signal.aborted) break;
      onState('retrying');
      await sleep(3000, signal);
    } catch {
      if (signal.aborted) break;
      onState('retrying');
      await sleep(backoff, signal);
      backoff = Math.min(backoff * 2, maxBackoffMs);
    }
  }
  onState('stopped');
}
