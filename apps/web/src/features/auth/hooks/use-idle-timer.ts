import { useEffect, useRef } from 'react';
import { createIdleTracker, IDLE_CHECK_INTERVAL_MS, IDLE_TIMEOUT_MS } from '../utils/idle-tracker';

// Mouse movement is the spec's signal; keys, taps and wheel also count so keyboard users are not signed out mid-work.
const ACTIVITY_EVENTS = ['mousemove', 'keydown', 'pointerdown', 'wheel', 'touchstart'] as const;

/** Calls onIdle once when the shared last-activity time is older than timeoutMs. */
export function useIdleTimer(onIdle: () => void, timeoutMs: number = IDLE_TIMEOUT_MS): void {
  const onIdleRef = useRef(onIdle);
  useEffect(() => {
    onIdleRef.current = onIdle;
  }, [onIdle]);

  useEffect(() => {
    const tracker = createIdleTracker(undefined, undefined, timeoutMs);
    const onActivity = () => tracker.recordActivity();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    let fired = false;
    const timer = window.setInterval(() => {
      if (fired || !tracker.isIdle()) return;
      fired = true;
      onIdleRef.current();
    }, IDLE_CHECK_INTERVAL_MS);
    return () => {
      window.clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, [timeoutMs]);
}
