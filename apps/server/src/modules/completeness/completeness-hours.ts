import { COMPLETE_SHARE, type HourState } from '@ipp/contracts';

const HOUR_MS = 3_600_000;

/** What one report adds to the hours it covers. */
export interface HourAddition {
  hour: number;
  online_s: number;
  sampling_s: number;
  frames_expected: number;
  expected: number;
  expected_reports: number;
}

export interface Interval {
  /** The time covered, epoch ms: the previous report to this one. */
  from: number;
  to: number;
  /** Reports no further apart than the offline threshold: the station was online all along. */
  online: boolean;
  /** Water flowed (or the device reports no volume). */
  sampling: boolean;
  /** Frames per second the device runs. */
  frameRate: number;
  /** Images the device's counter says it made over the interval (null: it reported no counter). */
  images: number | null;
}

/**
 * Spreads one interval between two reports over the UTC hours it covers, in proportion to the time in each: online and
 * sampling seconds, frames expected, and the images the device counted. An interval of zero length puts its images in
 * its hour.
 */
export function spreadOverHours(interval: Interval): HourAddition[] {
  const { from, to, online, sampling, frameRate, images } = interval;
  const out: HourAddition[] = [];
  const length = to - from;
  if (length <= 0) {
    if (images !== null && images > 0)
      out.push({ hour: hourStart(to), online_s: 0, sampling_s: 0, frames_expected: 0, expected: images, expected_reports: 1 });
    return out;
  }
  for (let hour = hourStart(from); hour < to; hour += HOUR_MS) {
    const ms = Math.min(to, hour + HOUR_MS) - Math.max(from, hour);
    if (ms <= 0) continue;
    const seconds = ms / 1000;
    const onlineS = online ? seconds : 0;
    const samplingS = online && sampling ? seconds : 0;
    out.push({
      hour,
      online_s: onlineS,
      sampling_s: samplingS,
      frames_expected: samplingS * frameRate,
      expected: images === null ? 0 : (images * ms) / length,
      expected_reports: images === null ? 0 : 1,
    });
  }
  return out;
}

const hourStart = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;

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

/** The state of an hour that has begun (see HOUR_STATES). */
export function hourState(row: HourRow | undefined): Exclude<HourState, 'none'> {
  // Images that arrived for an hour without reports (sent later from the device's store, or from before this record
  // began): the station was working.
  if (!row || row.online_s <= 0) return row && row.received > 0 ? 'complete' : 'offline';
  if (row.sampling_s <= 0) return 'idle';
  if (row.expected_reports > 0) {
    // Nothing counted and nothing lost: complete; otherwise at least COMPLETE_SHARE of what was made, give or take one.
    const short = row.expected - row.received;
    return short >= 1 && row.received < row.expected * COMPLETE_SHARE ? 'missing' : 'complete';
  }
  return row.received > 0 ? 'complete' : 'missing';
}
