import { fireEvent, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { IDLE_CHECK_INTERVAL_MS, IDLE_TIMEOUT_MS } from '../utils/idle-tracker';
import { useIdleTimer } from './use-idle-timer';

describe('useIdleTimer', () => {
  it('fires once after 30 minutes without movement', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const onIdle = vi.fn();
    renderHook(() => useIdleTimer(onIdle));
    await vi.advanceTimersByTimeAsync(IDLE_TIMEOUT_MS);
    expect(onIdle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_INTERVAL_MS * 2);
    expect(onIdle).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_INTERVAL_MS * 10);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it('is held off by mouse movement, which is stored for other tabs', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const onIdle = vi.fn();
    renderHook(() => useIdleTimer(onIdle));
    await vi.advanceTimersByTimeAsync(IDLE_TIMEOUT_MS - 60_000);
    fireEvent.mouseMove(window);
    expect(localStorage.getItem(STORAGE_KEYS.lastActivity)).toBe(String(Date.now()));
    await vi.advanceTimersByTimeAsync(IDLE_TIMEOUT_MS - 1_000);
    expect(onIdle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it('follows the configured idle minutes', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const onIdle = vi.fn();
    renderHook(() => useIdleTimer(onIdle, 5 * 60_000));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(onIdle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_INTERVAL_MS * 2);
    expect(onIdle).toHaveBeenCalledOnce();
  });

  it('stops checking when unmounted', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const onIdle = vi.fn();
    const { unmount } = renderHook(() => useIdleTimer(onIdle));
    unmount();
    await vi.advanceTimersByTimeAsync(IDLE_TIMEOUT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
