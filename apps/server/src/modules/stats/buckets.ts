import { PERIOD_HOURS, type Period } from '@ipp/contracts';
import { DAY_MS, HOUR_MS, hourOf } from './rollups.repository.ts';
import type { BucketRange } from './stats.repository.ts';

export interface Buckets extends BucketRange {
  count: number;
}

/** Day buckets starting at the statistics offset read the day rollups; anything else the hour rollups. */
function grainOf(width: number, start: number, dayOffsetHours: number): 'hour' | 'day' {
  return width % DAY_MS === 0 && (start + dayOffsetHours * HOUR_MS) % DAY_MS === 0 ? 'day' : 'hour';
}

/** The next local midnight after `now` for a viewer `tz` minutes east of UTC. */
export function nextLocalMidnight(now: number, tz: number): number {
  const offset = tz * 60_000;
  return Math.floor((now + offset) / DAY_MS) * DAY_MS + DAY_MS - offset;
}

export function localMidnight(now: number, tz: number): number {
  return nextLocalMidnight(now, tz) - DAY_MS;
}

/** The last 24 hours in hours, ending with the current hour. */
export function last24Hours(now: number): Buckets {
  const end = hourOf(now) + HOUR_MS;
  return { start: end - 24 * HOUR_MS, end, width: HOUR_MS, count: 24, grain: 'hour' };
}

/** The last 30 local days, ending with today. */
export function last30Days(now: number, tz: number, dayOffsetHours: number): Buckets {
  const end = nextLocalMidnight(now, tz);
  const start = end - 30 * DAY_MS;
  return { start, end, width: DAY_MS, count: 30, grain: grainOf(DAY_MS, start, dayOffsetHours) };
}

/**
 * A period split evenly into at most `points` buckets (spec §9). Buckets are whole hours (the hour rollups'
 * grain); from half a day up they are whole local days. 'all' starts at the station's first data (`firstHour`).
 */
export function periodBuckets(
  period: Period,
  points: number,
  now: number,
  tz: number,
  firstHour: number | null,
  dayOffsetHours: number,
): Buckets {
  const currentHourEnd = hourOf(now) + HOUR_MS;
  const rangeHours =
    period === 'all' ? Math.max(1, Math.ceil((currentHourEnd - (firstHour ?? hourOf(now))) / HOUR_MS)) : PERIOD_HOURS[period];
  let widthHours = Math.max(1, Math.ceil(rangeHours / points));
  // From half a day up, buckets are whole local days (the day rollups answer them).
  if (widthHours >= 12) widthHours = Math.ceil(widthHours / 24) * 24;
  const width = widthHours * HOUR_MS;
  const end = widthHours >= 24 ? nextLocalMidnight(now, tz) : currentHourEnd;
  // Day buckets end at the next local midnight, so one more bucket may be needed to reach back far enough.
  const count = Math.ceil((end - (currentHourEnd - rangeHours * HOUR_MS)) / width);
  const start = end - count * width;
  return { start, end, width, count, grain: grainOf(width, start, dayOffsetHours) };
}

/** One value per bucket of the range: the rows' values where a row exists, `empty` elsewhere. */
export function fill<R extends { bucket: number }, V>(range: Buckets, rows: R[], value: (row: R) => V, empty: V): V[] {
  const out = new Array<V>(range.count).fill(empty);
  for (const row of rows) if (row.bucket >= 0 && row.bucket < range.count) out[row.bucket] = value(row);
  return out;
}

/** Three decimals are plenty for charts and keep the JSON small. */
export function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1000) / 1000;
}
