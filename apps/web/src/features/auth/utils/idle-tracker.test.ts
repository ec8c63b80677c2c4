import { describe, expect, it } from 'vitest';
import { ACTIVITY_WRITE_INTERVAL_MS, createIdleTracker, IDLE_TIMEOUT_MS } from './idle-tracker';

function memoryStore(initial: string | null = null) {
  const writes: string[] = [];
  let value = initial;
  return {
    writes,
    read: () => value,
    write: (next: string) => {
      writes.push(next);
      value = next;
    },
    set: (next: string) => {
      value = next;
    },
  };
}

describe('createIdleTracker', () => {
  it('stamps the current time when nothing is stored yet', () => {
    const store = memoryStore();
    createIdleTracker(store, () => 5_000);
    expect(store.writes).toEqual(['5000']);
  });

  it('keeps a time another tab stored', () => {
    const store = memoryStore('4000');
    createIdleTracker(store, () => 5_000);
    expect(store.writes).toEqual([]);
  });

  it('stores movement at most every 300 ms', () => {
    let now = 10_000;
    const store = memoryStore('10000');
    const tracker = createIdleTracker(store, () => now);
    tracker.recordActivity();
    now += 100;
    tracker.recordActivity();
    now += ACTIVITY_WRITE_INTERVAL_MS - 100 - 1;
    tracker.recordActivity();
    expect(store.writes).toEqual(['10000']);
    now += 1;
    tracker.recordActivity();
    expect(store.writes).toEqual(['10000', String(10_000 + ACTIVITY_WRITE_INTERVAL_MS)]);
  });

  it('is idle only once 30 minutes have passed since the last stored movement', () => {
    let now = 0;
    const store = memoryStore('0');
    const tracker = createIdleTracker(store, () => now);
    now = IDLE_TIMEOUT_MS;
    expect(tracker.isIdle()).toBe(false);
    now = IDLE_TIMEOUT_MS + 1;
    expect(tracker.isIdle()).toBe(true);
  });

  it('counts movement in another tab', () => {
    let now = IDLE_TIMEOUT_MS + 1;
    const store = memoryStore('0');
    const tracker = createIdleTracker(store, () => now);
    store.set(String(now - 10));
    expect(tracker.isIdle()).toBe(false);
    now += IDLE_TIMEOUT_MS;
    expect(tracker.isIdle()).toBe(true);
  });

  it('restarts the clock when the stored time is unreadable', () => {
    const store = memoryStore('not a time');
    const tracker = createIdleTracker(store, () => 9_000);
    expect(tracker.isIdle()).toBe(false);
    expect(store.read()).toBe('9000');
  });
});
