import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePaging } from './use-paging';

describe('usePaging', () => {
  it('starts on page 1 at the size given, and a new page size starts again from page 1', () => {
    const { result } = renderHook(() => usePaging(100));
    expect([result.current.page, result.current.limit]).toEqual([1, 100]);
    act(() => result.current.change(3, 100));
    expect([result.current.page, result.current.limit]).toEqual([3, 100]);
    act(() => result.current.change(3, 50));
    expect([result.current.page, result.current.limit]).toEqual([1, 50]);
  });

  it('goes back to page 1 on a new search, and to the page before when the last row of a page was removed', () => {
    const { result } = renderHook(() => usePaging());
    expect(result.current.limit).toBe(20);
    act(() => result.current.change(3, 20));
    act(() => result.current.removed(2));
    expect(result.current.page).toBe(3);
    act(() => result.current.removed(1));
    expect(result.current.page).toBe(2);
    act(() => result.current.toFirst());
    expect(result.current.page).toBe(1);
    act(() => result.current.removed(1));
    expect(result.current.page).toBe(1);
  });
});
