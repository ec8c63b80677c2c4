import { STORAGE_KEYS } from '@/lib/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';

/** Spec §4/§9: sign out after 30 minutes (the default; configurable) without movement, checked every second, stored at most every 300 ms. */
export const IDLE_TIMEOUT_MS = 1_800_000;
export const IDLE_CHECK_INTERVAL_MS = 1_000;
export const ACTIVITY_WRITE_INTERVAL_MS = 300;

export interface IdleTracker {
  recordActivity(): void;
  isIdle(): boolean;
}

interface IdleStore {
  read(): string | null;
  write(value: string): void;
}

const localStore: IdleStore = {
  read: () => readStorage(STORAGE_KEYS.lastActivity),
  write: (value) => writeStorage(STORAGE_KEYS.lastActivity, value),
};

/**
 * The last-activity time lives in localStorage so every open tab measures idleness from the
 * latest movement in any of them.
 */
export function createIdleTracker(
  store: IdleStore = localStore,
  now: () => number = Date.now,
  timeoutMs: number = IDLE_TIMEOUT_MS,
): IdleTracker {
  let lastWrite = Number.NEGATIVE_INFINITY;

  const stamp = (time: number) => {
    lastWrite = time;
    store.write(String(time));
  };

  if (!Number.isFinite(Number(store.read() ?? Number.NaN))) stamp(now());

  return {
    recordActivity() {
      const time = now();
      if (time - lastWrite >= ACTIVITY_WRITE_INTERVAL_MS) stamp(time);
    },
    isIdle() {
      const last = Number(store.read() ?? Number.NaN);
      if (!Number.isFinite(last)) {
        stamp(now());
        return false;
      }
      return now() - last > timeoutMs;
    },
  };
}
