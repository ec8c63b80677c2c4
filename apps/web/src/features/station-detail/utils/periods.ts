import { PERIODS, type Period } from '@ipp/contracts';

export { PERIODS, type Period };

/**
 * Chart points per period (spec §9: the range is split evenly by the number of points); the server rounds each
 * bucket to whole hours, so these give hourly, 2-hourly … buckets rather than odd lengths.
 */
export const PERIOD_POINTS: Readonly<Record<Period, number>> = {
  '24h': 24,
  '3d': 36,
  '7d': 42,
  '15d': 60,
  '1m': 60,
  '3m': 90,
  '6m': 92,
  '1y': 122,
  all: 120,
};

/** Spec §8: querying everything is slow, so it is asked for only after a confirmation. */
export function needsConfirmation(period: Period): boolean {
  return period === 'all';
}
