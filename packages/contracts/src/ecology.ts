import { z } from 'zod';
import { MAX_ID } from './ids.ts';
import { SiteRoiQuerySchema } from './views.ts';
import { siteSeriesHead } from './site-series.ts';

/** At most this many classes in one selection (the NBSS draws one series per class). */
export const ECOLOGY_MAX_CLASSES = 12;

/** Class keys: class ids, 0 = not classified. */
const ClassKeyList = z
  .string()
  .trim()
  .max(200)
  .regex(/^(\d{1,10}(,\d{1,10})*)?$/, 'a comma-separated list of class ids')
  .transform((s) => (s === '' ? [] : [...new Set(s.split(',').map(Number))]))
  .refine((keys) => keys.every((k) => k <= MAX_ID), 'a class id out of range')
  .refine((keys) => keys.length <= ECOLOGY_MAX_CLASSES, `at most ${ECOLOGY_MAX_CLASSES} classes`);

/** GET /roi/get-site-ecology and /roi/export-site-ecology: a station over a period, for a selection of classes. */
export const SiteEcologyQuerySchema = SiteRoiQuerySchema.extend({
  /** Comma-separated class ids (0 = not classified); absent or empty = every class. */
  classes: ClassKeyList.optional(),
});
export type SiteEcologyQuery = z.infer<typeof SiteEcologyQuerySchema>;

export const EcologyExportQuerySchema = SiteEcologyQuerySchema.extend({
  /** series: one row per time bucket; nbss: one row per series and size class. */
  table: z.enum(['series', 'nbss']).default('series'),
});
export type EcologyExportQuery = z.infer<typeof EcologyExportQuerySchema>;

export const EcologyClassSchema = z.object({
  /** null = not classified. */
  class_id: z.number().int().nullable(),
  name: z.string().nullable(),
  count: z.number().int(),
  /** ROIs with a measured object (the others have no size). */
  measured: z.number().int(),
  /** Total biovolume, mm³; null without the station's pixel size. */
  biovolume_mm3: z.number().nullable(),
});
export type EcologyClass = z.infer<typeof EcologyClassSchema>;

export const EcologyBucketSchema = z.object({
  start: z.number().int(),
  /** Water sampled in the bucket, L. */
  volume_l: z.number(),
  /** ROIs of the selection. */
  count: z.number().int(),
  /** Individuals per litre; null when no water was sampled. */
  concentration_per_l: z.number().nullable(),
  /** null without a pixel size. */
  biovolume_mm3: z.number().nullable(),
  /** mm³ of organisms per litre of water; null without a pixel size or water. */
  biovolume_mm3_per_l: z.number().nullable(),
});
export type EcologyBucket = z.infer<typeof EcologyBucketSchema>;

export const NbssPointSchema = z.object({
  /** Octave of biovolume: objects of [2^k, 2^(k+1)) px³. */
  size_class: z.number().int(),
  min_mm3: z.number(),
  max_mm3: z.number(),
  /** Equivalent spherical diameter of the class's geometric middle, µm. */
  esd_um: z.number(),
  count: z.number().int(),
  biovolume_mm3: z.number(),
  /** Normalized biovolume: (biovolume of the class / water sampled) / class width, mm³ L⁻¹ mm⁻³ (= L⁻¹). */
  nbss_per_l: z.number(),
});
export type NbssPoint = z.infer<typeof NbssPointSchema>;

export const NbssSeriesSchema = z.object({
  /** The whole selection (true) or one class of it. */
  total: z.boolean(),
  class_id: z.number().int().nullable(),
  name: z.string().nullable(),
  /** Least-squares slope of log10 NBSS on log10 biovolume over the non-empty classes; null under 3 of them. */
  slope: z.number().nullable(),
  points: z.array(NbssPointSchema),
});
export type NbssSeries = z.infer<typeof NbssSeriesSchema>;

/** GET /roi/get-site-ecology: concentration, biovolume concentration and the NBSS of a selection of classes. */
export const SiteEcologySchema = z.object({
  ...siteSeriesHead,
  /** µm per pixel; null: the station has none, so no biovolume and no NBSS. */
  pixel_size_um: z.number().nullable(),
  /** Water sampled over the period, L. */
  volume_l: z.number(),
  /** Every class with ROIs in the period, largest first (what the selection picks from). */
  classes: z.array(EcologyClassSchema),
  /** The selection as class keys (0 = not classified); empty = every class. */
  selected: z.array(z.number().int()),
  /** The selection's totals over the period. */
  count: z.number().int(),
  measured: z.number().int(),
  concentration_per_l: z.number().nullable(),
  biovolume_mm3: z.number().nullable(),
  biovolume_mm3_per_l: z.number().nullable(),
  buckets: z.array(EcologyBucketSchema),
  /** The selection's total first, then each class of it (every class: the five largest); empty without a pixel size or water. */
  nbss: z.array(NbssSeriesSchema),
});
export type SiteEcology = z.infer<typeof SiteEcologySchema>;
