import { COMPLETE_SHARE, type HourState } from '@ipp/contracts';
import { HOUR_MS, hourOf } from '../stats/rollup-keys.ts';

/** What reports add to one hour. */
export interface HourAddition {
  hour: number;
  online_s: number;
  sampling_s: number;
  frames_expected: number;
  expected: number;
  expected_reports: number;
}

/**
 * Images a device made over a longer silence are put in the hour of the report that counts them: spreading them over
 * months of hours would write a row per hour (and say nothing true about when they were made).
 */
export const MAX_IMAGE_SPREAD_MS = 48 * HOUR_MS;

/** Milliseconds of [from, to) in each UTC hour it touches. */
function hoursOf(from: number, to: number): { hour: number; ms: number }[] {
  const out: { hour: number; ms: number }[] = [];
  for (let hour = hourOf(from); hour < to; hour += HOUR_MS) {
    const ms = Math.min(to, hour + HOUR_MS) - Math.max(from, hour);
    if (ms > 0) out.push({ hour, ms });
  }
  return out;
}

const empty = (hour: number): HourAddition => ({
  hour,
  online_s: 0,
  sampling_s: 0,
  frames_expected: 0,
  expected: 0,
  expected_reports: 0,
});

/**
 * What one report adds, per UTC hour, in hour order:
 * - the time since the previous report, when the station was online over it (`online`: reports no further apart than
 *   the offline threshold, so at most a day of hours): online seconds, sampling seconds when water flowed, and frames
 *   expected at the frame rate it runs; an offline interval adds no time;
 * - the images its counter says it made since its previous counter reading, in proportion to the time in each hour
 *   (over a silence longer than MAX_IMAGE_SPREAD_MS, all in the report's hour).
 */
export function reportAdditions(report: {
  from: number;
  to: number;
  online: boolean;
  sampling: boolean;
  frameRate: number;
  /** Images counted since the previous counter reading at `imagesFrom` (null: no counter in this report). */
  images: number | null;
  imagesFrom: number;
}): HourAddition[] {
  const byHour = new Map<number, HourAddition>();
  const at = (hour: number) => byHour.get(hour) ?? byHour.set(hour, empty(hour)).get(hour)!;
  if (report.online)
    for (const { hour, ms } of hoursOf(report.from, report.to)) {
      const row = at(hour);
      row.online_s += ms / 1000;
      if (report.sampling) {
        row.sampling_s += ms / 1000;
        row.frames_expected += (ms / 1000) * report.frameRate;
      }
    }
  if (report.images !== null) {
    const length = report.to - report.imagesFrom;
    const spread = length > 0 && length <= MAX_IMAGE_SPREAD_MS ? hoursOf(report.imagesFrom, report.to) : [];
    if (spread.length === 0) spread.push({ hour: hourOf(report.to), ms: 1 });
    const total = spread.reduce((sum, part) => sum + part.ms, 0);
    for (const { hour, ms } of spread) {
      const row = at(hour);
      row.expected += (report.images * ms) / total;
      row.expected_reports += 1;
    }
  }
  return [...byHour.values()].sort((a, b) => a.hour - b.hour);
}

/** One stored hour, as the chart needs it. */
export interface HourRow {
  hour: number;
  online_s: number;
  sampling_s: number;
  frames_expected: number;
  expected: number;
  expected_reports: number;
  received: number;
}

/** Images received beyond those expected in an hour the device counted (0 otherwise). */
const surplus = (row: HourRow | undefined) => (row && row.expected_reports > 0 ? Math.max(0, row.received - row.expected) : 0);

/**
 * The state of an hour that is over. Where the device counted its images, fewer than COMPLETE_SHARE of them (and at
 * least one short) is missing images, online or not; the images are spread over the time between counter readings but
 * counted where they were captured, so a surplus in the hour before or after covers a shortfall (a burst just before
 * the hour turned). Without a counter, a sampling hour with no image at all is missing.
 */
export function hourState(row: HourRow | undefined, before?: HourRow, after?: HourRow): Exclude<HourState, 'none'> {
  if (!row) return 'offline';
  if (row.expected_reports > 0) {
    const short = row.expected - row.received - surplus(before) - surplus(after);
    if (short >= 1 && row.received + surplus(before) + surplus(after) < row.expected * COMPLETE_SHARE) return 'missing';
  }
  // Images for an hour without reports (sent later from the device's store): the station was working.
  if (row.online_s <= 0) return row.received > 0 ? 'complete' : 'offline';
  if (row.sampling_s <= 0) return 'idle';
  if (row.expected_reports > 0) return 'complete';
  return row.received > 0 ? 'complete' : 'missing';
}
