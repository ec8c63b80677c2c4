import { MAX_ID } from './ids.ts';
import { z } from 'zod';
import type { LabelKind } from './constants.ts';
import { MeasuredSchema } from './measured.ts';
import { siteSeriesHead } from './site-series.ts';

/** Image type derived from the ROI fields (spec §3): hi=1 → hi; roi_labelindex=0 → ui; else ai. */
export const RoiTypeSchema = z.enum(['ai', 'hi', 'ui']) satisfies z.ZodType<LabelKind>;

export { LABEL_KINDS, labelKindCodeOf, labelKindOf, type LabelKind } from './constants.ts';
export type RoiType = z.infer<typeof RoiTypeSchema>;

/** An ROI as lists, walls and galleries show it. Image URLs are relative to the API base (spec §7). */
/**
 * The instrument's state when an ROI was captured (issue 23), from the telemetry sample at or before the capture (at
 * most ROI_FLAG_RULES.sampleWithinMs earlier), flagged at ingest: the wiper cleaning (or its last clean less than
 * wiperSettleMs before), the UV-C illuminator emitting (measured duty above 0), the internal temperature outside the
 * operating range.
 */
export const ROI_FLAGS = ['wiper', 'uvc', 'temperature'] as const;
export type RoiFlag = (typeof ROI_FLAGS)[number];
export const ROI_FLAG_BITS: Readonly<Record<RoiFlag, number>> = { wiper: 1, uvc: 2, temperature: 4 };
export const ROI_FLAG_RULES = {
  sampleWithinMs: 10 * 60_000,
  wiperSettleMs: 60_000,
  temperatureC: { min: 0, max: 35 },
} as const;

/** The flags of a stored bit set. */
export const roiFlagsOf = (bits: number): RoiFlag[] => ROI_FLAGS.filter((flag) => (bits & ROI_FLAG_BITS[flag]) !== 0);

/** Identify's filter on them: any flag, none, or one. */
export const ROI_FLAG_FILTERS = ['any', 'none', ...ROI_FLAGS] as const;
export type RoiFlagFilter = (typeof ROI_FLAG_FILTERS)[number];

export const RoiSummarySchema = z.object({
  id: z.number().int(),
  ipp_id: z.number().int(),
  dev_id: z.string(),
  site_name: z.string(),
  roi_time: z.number().int(),
  received_at: z.number().int(),
  class_id: z.number().int().nullable(),
  class_name: z.string().nullable(),
  roi_labelindex: z.number().int(),
  confidence: z.number().nullable(),
  hi: z.number().int(),
  type: RoiTypeSchema,
  /** Area of the segmented object (or, for images from before measuring, of the frame), px². */
  size_px: z.number().int(),
  /** The station's µm per pixel (null: unknown), to show sizes in µm. */
  pixel_size_um: z.number().nullable(),
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  favorite: z.boolean(),
  /** The instrument's state at capture that may affect the image (ROI_FLAGS); empty when none. */
  flags: z.array(z.enum(ROI_FLAGS)),
  /** Original image, e.g. "roi/file/<sha256>". */
  url: z.string(),
  /** WebP thumbnail made at ingest. */
  thumb_url: z.string(),
  /**
   * A human (HI) label: who gave it (user id and name) and when (ms). Null for AI and unidentified ROIs and for HI
   * labels of unknown origin (given before this was recorded, or imported); the name is null for a removed account.
   */
  labelled_by: z.number().int().nullable(),
  labelled_by_name: z.string().nullable(),
  labelled_at: z.number().int().nullable(),
});
export type RoiSummary = z.infer<typeof RoiSummarySchema>;

/** Minutes east of UTC of the viewer (e.g. 480 for China), so day buckets start at the viewer's midnight. */
export const TzQuery = z.coerce.number().int().min(-720).max(840).default(0);

export const ClassCountSchema = z.object({
  /** null = not classified (the device sent label 0 or a label the console does not know). */
  class_id: z.number().int().nullable(),
  name: z.string().nullable(),
  count: z.number().int(),
});
export type ClassCount = z.infer<typeof ClassCountSchema>;

export const StationRefSchema = z.object({
  id: z.number().int(),
  dev_id: z.string(),
  site_name: z.string(),
  /** Followed by the caller (Select IPP); followed stations come first. */
  followed: z.boolean(),
  online: z.boolean(),
});

export const ViewsScopeQuerySchema = z.object({
  /** Superadmin only: one team (others always see their own). */
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  tz: TzQuery,
});

/** GET /views/roi24: ROIs per hour per station over the last 24 hours. */
export const Roi24Schema = z.object({
  start: z.number().int(),
  bucket_ms: z.number().int(),
  stations: z.array(StationRefSchema.extend({ counts: z.array(z.number().int()) })),
});
export type Roi24 = z.infer<typeof Roi24Schema>;

export const Roi30QuerySchema = ViewsScopeQuerySchema.extend({
  /** One station (the preview page); all visible stations when absent. */
  ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});
export type Roi30Query = z.infer<typeof Roi30QuerySchema>;

const series = z.array(z.number().nullable());

/** GET /views/roi30: the last 30 days per station by local day, plus the class distribution over them. */
export const Roi30Schema = z.object({
  start: z.number().int(),
  bucket_ms: z.number().int(),
  stations: z.array(
    StationRefSchema.extend({
      rois: z.array(z.number().int()),
      /** Mean internal temperature (°C) per day; null where no sample arrived. */
      temperature_c: series,
      temperature_min_c: series,
      temperature_max_c: series,
      humidity_pct: series,
      /** Water sampled per day, L (from the total-volume counter). */
      volume_l: z.array(z.number()),
    }),
  ),
  classes: z.array(ClassCountSchema),
});
export type Roi30 = z.infer<typeof Roi30Schema>;

/** GET /views/wall: the team's latest favourite ROIs, at most the wall maximum (a system setting). */
export const WallSchema = z.object({
  total: z.number().int(),
  max: z.number().int(),
  items: z.array(RoiSummarySchema),
});
export type Wall = z.infer<typeof WallSchema>;

export const RoisQuerySchema = z.object({
  ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export type RoisQuery = z.infer<typeof RoisQuerySchema>;

/** GET /dashboard/get-last-insert-time: capture time of the newest image (Roi_time) and when an ROI last arrived. */
export const LastInsertSchema = z.object({ at: z.number().int().nullable(), received_at: z.number().int().nullable() });
export type LastInsert = z.infer<typeof LastInsertSchema>;

/** Periods of spec §9; 'all' starts at the station's first data. */
export const PERIODS = ['24h', '3d', '7d', '15d', '1m', '3m', '6m', '1y', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_HOURS: Record<Exclude<Period, 'all'>, number> = {
  '24h': 24,
  '3d': 72,
  '7d': 168,
  '15d': 360,
  '1m': 720,
  '3m': 2160,
  '6m': 4380,
  '1y': 8760,
};

export const SiteRoiQuerySchema = z.object({
  dev_id: z.string().trim().min(1).max(32),
  period: z.enum(PERIODS).default('24h'),
  /** Number of chart points; the range is split evenly into this many buckets of whole hours. */
  points: z.coerce.number().int().min(2).max(400).default(48),
  tz: TzQuery,
});
export type SiteRoiQuery = z.infer<typeof SiteRoiQuerySchema>;

export const SiteBucketSchema = z.object({
  start: z.number().int(),
  count: z.number().int(),
  /** Water sampled in the bucket, L. */
  volume_l: z.number(),
  /** ROIs per litre; null when no water was sampled. */
  concentration_per_l: z.number().nullable(),
  temperature_c: z.number().nullable(),
  humidity_pct: z.number().nullable(),
});
export type SiteBucket = z.infer<typeof SiteBucketSchema>;

/** GET /roi/get-site-roi: one station's histogram, top-6 classes and concentration over a period. */
export const SiteRoiSchema = z.object({
  ...siteSeriesHead,
  buckets: z.array(SiteBucketSchema),
  /** The six largest classes; the rest summed in `others`. */
  top_classes: z.array(ClassCountSchema),
  others: z.number().int(),
  total: z.number().int(),
  volume_l: z.number(),
});
export type SiteRoi = z.infer<typeof SiteRoiSchema>;

export const PIE_TOP_CLASSES = 6;

export const RoiDetailsQuerySchema = z.object({ roi_id: z.coerce.number().int().positive().max(MAX_ID) });

/** GET /roi/get-roi-details: one image, its station and the instrument's state when it was captured. */
export const RoiDetailsSchema = z.object({
  roi: RoiSummarySchema,
  /** The telemetry sample at or just before the capture time (within the offline threshold); null if none. */
  telemetry: MeasuredSchema.nullable(),
  /** The neighbours at the same station, by capture time. */
  previous_id: z.number().int().nullable(),
  next_id: z.number().int().nullable(),
});
export type RoiDetails = z.infer<typeof RoiDetailsSchema>;

export const FavoriteBodySchema = z.object({ roi_id: z.number().int().positive().max(MAX_ID), favorite: z.boolean() });
export type FavoriteBody = z.infer<typeof FavoriteBodySchema>;
