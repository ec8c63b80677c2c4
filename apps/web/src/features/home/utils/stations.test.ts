import { describe, expect, it } from 'vitest';
import { roi24Fixture } from '@/test/monitoring-fixtures';
import { followedFirst, followedIds } from './stations';

describe('followed stations first', () => {
  it('reads the followed ids from the 24-hour data, in order', () => {
    expect(followedIds(roi24Fixture())).toEqual([8]);
    expect(followedIds(undefined)).toEqual([]);
  });

  it('puts followed stations first in the order followed, the others in their own order', () => {
    const stations = [1, 2, 3, 4, 5].map((id) => ({ id }));
    expect(followedFirst(stations, [4, 2]).map((s) => s.id)).toEqual([4, 2, 1, 3, 5]);
    expect(followedFirst(stations, [9]).map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
  });
});
