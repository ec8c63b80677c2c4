import dayjs from 'dayjs';

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
