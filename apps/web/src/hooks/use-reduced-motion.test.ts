import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useReducedMotion } from './use-reduced-motion';

function fakeMedia(matches: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  };
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    expect(query).toBe('(prefers-reduced-motion: reduce)');
    return list as unknown as MediaQueryList;
  });
  return {
    set(value: boolean) {
      list.matches = value;
      for (const fn of listeners) fn();
    },
    listeners,
  };
}

describe('useReducedMotion', () => {
  afterEach(() => vi.restoreAllMocks());

  it('follows the system setting, and its changes', () => {
    const media = fakeMedia(true);
    const { result, unmount } = renderHook(() => useReducedMotion());
    expect(result.current).toBe(true);
    act(() => media.set(false));
    expect(result.current).toBe(false);
    unmount();
    expect(media.listeners.size).toBe(0);
  });

  it('is off when the system says nothing', () => {
    fakeMedia(false);
    const { result } = renderHook(() => useReducedMotion());
    expect(result.current).toBe(false);
  });
});
