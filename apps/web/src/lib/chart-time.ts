import dayjs from 'dayjs';
import { viewerOffsetLabel } from './time-zones';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** dayjs formats of the axis labels, per language (i18n `chart.format.*`). */
export interface TimeFormats {
  /** Within one day: "14:00". */
  hour: string;
  /** Hourly buckets over several days: "3月5日 14:00" / "Mar 5 14:00". */
  dayHour: string;
  /** Daily buckets within a year: "3月5日" / "Mar 5". */
  day: string;
  /** Longer spans, where the year matters: "2026-03-05". */
  date: string;
  /** How the bucket that is still filling is named; English when absent. */
  partial?: PartialWords;
}

/** The format that tells buckets of this size apart over this span without saying more than needed. */
export function labelFormat(bucketMs: number, spanMs: number, formats: TimeFormats): string {
  if (bucketMs < DAY_MS) return spanMs <= DAY_MS ? formats.hour : formats.dayHour;
  return spanMs <= 366 * DAY_MS ? formats.day : formats.date;
}

/** Start of each of `count` buckets of `bucketMs` from `start` (spec §9: ranges split evenly). */
export function bucketStarts(start: number, bucketMs: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) => start + index * bucketMs);
}

/** Axis labels of buckets in the viewer's time zone and language (dayjs follows the interface language). */
export function bucketLabels(starts: readonly number[], bucketMs: number, formats: TimeFormats): string[] {
  const span = starts.length * bucketMs;
  const format = labelFormat(bucketMs, span, formats);
  return starts.map((start) => dayjs(start).format(format));
}

/** Words for the bucket that is still filling (i18n `chart.partial.*`). */
export interface PartialWords {
  /** The current local day's short axis label: "Today" / "今天". */
  today: string;
  /** The long label of a bucket that is still filling: "Today (so far, until 14:32)" / "今天（截至 14:32）". */
  soFar: (label: string, time: string) => string;
}

const ENGLISH_PARTIAL: PartialWords = { today: 'Today', soFar: (label, time) => `${label} (so far, until ${time})` };

/**
 * Index of the bucket that is still filling: the last one, when the data's time `asOf` lies strictly inside it
 * (a range that is not over yet). A range that ended (asOf at or after its end, e.g. a past range ending at
 * midnight) or has not begun has none; so has a last bucket that has only just begun (asOf at its start).
 */
export function partialBucketIndex(start: number, bucketMs: number, count: number, asOf: number | undefined): number | null {
  if (asOf === undefined || count === 0 || bucketMs <= 0) return null;
  const lastStart = start + (count - 1) * bucketMs;
  return asOf > lastStart && asOf < lastStart + bucketMs ? count - 1 : null;
}

/** Category labels of a bucketed axis, and which bucket (if any) holds data only until `asOf`. */
export interface BucketAxis {
  /** One per bucket; the partial bucket's says so: "Today (so far, until 14:32)" (the tooltip's title). */
  labels: string[];
  /** The partial bucket and its short axis label ("Today"); null when every bucket is complete. */
  partial: { index: number; short: string } | null;
  /** The viewer's zone the labels are written in ("UTC+8"), added to the tooltip's title (issue 23). */
  zone?: string;
}

/** A bucket axis of complete buckets only (ranges that are over, or charts drawn without a data time). */
export const completeAxis = (labels: string[]): BucketAxis => ({ labels, partial: null });

/**
 * Labels of the buckets starting at `starts`, the last marked partial when `asOf` (when the data was read) lies
 * inside it. A partial whole day is the viewer's today (day buckets are local days): "Today", "Today (so far, until
 * 14:32)"; a partial hour keeps its label: "14:00 (so far, until 14:32)".
 */
export function bucketAxis(
  starts: readonly number[],
  bucketMs: number,
  formats: TimeFormats,
  asOf?: number,
  words: PartialWords = formats.partial ?? ENGLISH_PARTIAL,
): BucketAxis {
  const labels = bucketLabels(starts, bucketMs, formats);
  const zone = viewerOffsetLabel(asOf ?? starts.at(-1) ?? Date.now());
  const index = partialBucketIndex(starts[0] ?? 0, bucketMs, starts.length, asOf);
  if (index === null || asOf === undefined) return { ...completeAxis(labels), zone };
  const short = bucketMs === DAY_MS ? words.today : labels[index]!;
  labels[index] = words.soFar(short, dayjs(asOf).format(formats.hour));
  return { labels, partial: { index, short }, zone };
}
