import type { CompletenessBucket } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { bucketBand, missingOf } from './completeness-chart';

const bucket = (
  hours: Partial<CompletenessBucket['hours']>,
  expected: number | null = 10,
  received = 10,
): CompletenessBucket => ({
  start: 0,
  online_s: 3600,
  sampling_s: 3600,
  frames_expected: 10800,
  expected,
  received,
  hours: { complete: 0, missing: 0, idle: 0, offline: 0, none: 0, ...hours },
});

describe('completeness chart', () => {
  it('bands a bucket red when any hour lost images, grey only when it was offline throughout its begun hours', () => {
    expect(bucketBand(bucket({ complete: 20, missing: 1, offline: 3 }))).toBe('missing');
    expect(bucketBand(bucket({ offline: 3, none: 21 }))).toBe('offline');
    expect(bucketBand(bucket({ offline: 3, complete: 1 }))).toBeNull();
    expect(bucketBand(bucket({ offline: 2, idle: 1 }))).toBeNull();
    expect(bucketBand(bucket({ none: 24 }))).toBeNull();
  });

  it('counts images not received, never below zero, nothing where the device does not count', () => {
    expect(missingOf(bucket({}, 12.4, 3))).toBe(9);
    expect(missingOf(bucket({}, 10, 14))).toBe(0);
    expect(missingOf(bucket({}, null, 0))).toBe(0);
  });
});
