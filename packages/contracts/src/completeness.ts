import { z } from 'zod';
import { PERIODS, TzQuery } from './views.ts';
import { siteSeriesHead } from './site-series.ts';

/**
 * Data completeness (issue 23): per station and hour, the images the station should have delivered against the
 * images the console received, so a data manager sees missing hours at a glance.
 *
 * - Online: seconds covered by telemetry reports no further apart than the offline threshold.
 * - Sampling: online seconds in which water flowed (the device's volume counters moved), or every online second of
 *   a device that reports no volume.
 * - Frames expected: the frame rate the device runs × its sampling seconds.
 * - Images expected: the ROIs the device says it made (its `rois_total` counter); how many ROIs a frame holds depends
 *   on the water, so the frame rate alone cannot predict them (docs/decisions.md).
 * - Received: images stored for the hour they were captured in, counted once when they arrive (deleting an image later
 *   does not make its hour incomplete).
 */
export const CompletenessQuerySchema = z.object({
  dev_id: z.string().trim().min(1).max(32),
  period: z.enum(PERIODS).default('7d'),
  points: z.coerce.number().int().min(2).max(400).default(168),
  tz: TzQuery,
});
export type CompletenessQuery = z.infer<typeof CompletenessQuerySchema>;

/**
 * What an hour was: `complete` (sampling, and the images expected arrived), `missing` (sampling, and fewer than 90 %
 * of the images the device made arrived, or none at all where the device does not count them), `idle` (online, not
 * sampling), `offline` (no reports), `none` (the hour in progress, not begun yet, or before the station's first report).
 */
export const HOUR_STATES = ['complete', 'missing', 'idle', 'offline', 'none'] as const;
export type HourState = (typeof HOUR_STATES)[number];

/** Below this share of the expected images an hour counts as missing images. */
export const COMPLETE_SHARE = 0.9;

export const CompletenessBucketSchema = z.object({
  start: z.number().int(),
  online_s: z.number(),
  sampling_s: z.number(),
  frames_expected: z.number(),
  /** null: the device reported no image counter in this bucket. */
  expected: z.number().nullable(),
  received: z.number().int(),
  /** Hours of the bucket in each state of HOUR_STATES. */
  hours: z.object({
    complete: z.number().int(),
    missing: z.number().int(),
    idle: z.number().int(),
    offline: z.number().int(),
    none: z.number().int(),
  }),
});
export type CompletenessBucket = z.infer<typeof CompletenessBucketSchema>;

/** GET /ipp/completeness: a station's images expected against received over a period, per bucket of whole hours. */
export const CompletenessSchema = z.object({
  ...siteSeriesHead,
  buckets: z.array(CompletenessBucketSchema),
  totals: z.object({
    /** Images the device counted, over the hours that are over (null: it counted none). */
    expected: z.number().nullable(),
    /** Every image received for the period. */
    received: z.number().int(),
    /** The images received in the hours the device counted: what `expected` compares with. */
    received_counted: z.number().int(),
    /** received_counted against expected, % (null when nothing was expected). */
    received_pct: z.number().nullable(),
    missing_hours: z.number().int(),
    offline_hours: z.number().int(),
    sampling_hours: z.number(),
  }),
});
export type Completeness = z.infer<typeof CompletenessSchema>;
