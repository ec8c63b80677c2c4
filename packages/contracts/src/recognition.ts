import { MAX_ID } from './ids.ts';
import { z } from 'zod';
import { RoiSummarySchema } from './views.ts';

/**
 * AI recognition (spec §1, §3 re-identification, §7 POST /python/feature and the calls outside the api prefix):
 * measured features, per-team classifiers trained on human labels, durable jobs, similarity. docs/recognition.md.
 */

/** Morphology of the segmented organism, in pixels of the original image (docs/recognition.md "Features"). */
export const MeasuresSchema = z.object({
  area_px: z.number(),
  perimeter_px: z.number(),
  equivalent_diameter_px: z.number(),
  major_axis_px: z.number(),
  minor_axis_px: z.number(),
  feret_px: z.number(),
  elongation: z.number(),
  eccentricity: z.number(),
  solidity: z.number(),
  convexity: z.number(),
  circularity: z.number(),
  mean_intensity: z.number(),
  /** Prolate ellipsoid on the major/minor axes: π/6 · major · minor², px³. */
  biovolume_px3: z.number(),
});
export type Measures = z.infer<typeof MeasuresSchema>;

/** POST /python/feature: (re)compute and store the features of ROIs the caller may see. */
export const FeatureBodySchema = z
  .object({
    roi_id: z.number().int().positive().max(MAX_ID).optional(),
    roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(200).optional(),
  })
  .refine((b) => b.roi_id !== undefined || b.roi_ids !== undefined, { path: ['roi_id'], message: 'required' });
export type FeatureBody = z.infer<typeof FeatureBodySchema>;
export const FeatureItemSchema = z.object({
  roi_id: z.number().int(),
  values: z.array(z.number()),
  measures: MeasuresSchema,
});
export const FeatureResultSchema = z.object({
  version: z.number().int(),
  names: z.array(z.string()),
  items: z.array(FeatureItemSchema),
});
export type FeatureResult = z.infer<typeof FeatureResultSchema>;

export const ClassScoreSchema = z.object({
  class_id: z.number().int(),
  class_name: z.string(),
  /** Share of the forest's votes (0-1). */
  p: z.number(),
});
export type ClassScore = z.infer<typeof ClassScoreSchema>;

/** The AI label of one ROI, with the model that gave it. */
export const AiLabelSchema = z.object({
  model_id: z.number().int(),
  model_version: z.number().int(),
  class_id: z.number().int(),
  confidence: z.number(),
  top: z.array(ClassScoreSchema).max(3),
  /** Below its class's threshold: sent to the review queue (-7). */
  low_confidence: z.boolean(),
  labelled_at: z.number().int(),
});
export type AiLabel = z.infer<typeof AiLabelSchema>;

/** GET /ai/roi?roi_id=: what recognition knows of one ROI (the detail viewer). */
export const RoiInsightQuerySchema = z.object({ roi_id: z.coerce.number().int().positive().max(MAX_ID) });
export const RoiInsightSchema = z.object({
  roi_id: z.number().int(),
  ai: AiLabelSchema.nullable(),
  measures: MeasuresSchema.nullable(),
  /** The station's micrometres per pixel, to show the measures in physical units; null = not set. */
  pixel_size_um: z.number().nullable(),
});
export type RoiInsight = z.infer<typeof RoiInsightSchema>;

export const MODEL_STATUSES = ['training', 'ready', 'failed'] as const;
export const ModelSchema = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  /** 1, 2, 3 … within the team. */
  version: z.number().int(),
  status: z.enum(MODEL_STATUSES),
  active: z.boolean(),
  train_size: z.number().int(),
  classes: z.number().int(),
  /** k-fold cross-validated top-1 accuracy and balanced accuracy (0-1); null until trained. */
  cv_accuracy: z.number().nullable(),
  cv_balanced_accuracy: z.number().nullable(),
  feature_version: z.number().int(),
  /** Confidences are calibrated probabilities and classes have auto-accept thresholds (models since vector 2). */
  calibrated: z.boolean(),
  /** The labels this version gave that are still stored: accepted by the machine, and sent to review. */
  labels_accepted: z.number().int(),
  labels_review: z.number().int(),
  created_at: z.number().int(),
  created_by: z.string().nullable(),
  error: z.string().nullable(),
});
export type Model = z.infer<typeof ModelSchema>;
export const TeamQuerySchema = z.object({ group_id: z.coerce.number().int().positive().max(MAX_ID).optional() });
export const ModelListSchema = z.object({
  group_id: z.number().int(),
  active_id: z.number().int().nullable(),
  items: z.array(ModelSchema),
});
export type ModelList = z.infer<typeof ModelListSchema>;
/**
 * GET /ai/model/report: how well a model version did in the k-fold cross-validation run when it was trained — per
 * class (support = the class's training examples) and the most frequent confusions, most frequent first.
 */
export const ModelReportQuerySchema = z.object({ model_id: z.coerce.number().int().positive().max(MAX_ID) });
/**
 * The committed backbone's card (docs/recognition.md, "Measuring"): its figures on images it never trained on: the
 * frozen balanced held-out list (balanced accuracy, the headline) and the natural-mix held-out images beside it.
 */
export const BackboneCardSchema = z.object({
  version: z.string(),
  held_out_images: z.number().int(),
  balanced_accuracy: z.number().nullable(),
  top1: z.number().nullable(),
  natural_images: z.number().int(),
  natural_top1: z.number().nullable(),
  natural_balanced_accuracy: z.number().nullable(),
});
export type BackboneCard = z.infer<typeof BackboneCardSchema>;

export const ModelReportSchema = z.object({
  model_id: z.number().int(),
  version: z.number().int(),
  folds: z.number().int(),
  n: z.number().int(),
  accuracy: z.number(),
  balanced_accuracy: z.number(),
  /** Expected calibration error of the cross-validated confidences; null for reports that kept none. */
  ece: z.number().nullable(),
  /** The network under every team model; null where its card cannot be read. */
  backbone: BackboneCardSchema.nullable(),
  classes: z.array(
    z.object({
      class_id: z.number().int(),
      class_name: z.string(),
      support: z.number().int(),
      precision: z.number(),
      recall: z.number(),
    }),
  ),
  confusions: z.array(
    z.object({
      true_class_id: z.number().int(),
      true_class_name: z.string(),
      predicted_class_id: z.number().int(),
      predicted_class_name: z.string(),
      count: z.number().int(),
    }),
  ),
});
export type ModelReport = z.infer<typeof ModelReportSchema>;
/** POST /ai/models/train: a training job for the team (superadmin names the team). */
export const TrainBodySchema = z.object({ group_id: z.number().int().positive().max(MAX_ID).optional() });
export const TrainResultSchema = z.object({ job_id: z.number().int(), model_id: z.number().int() });
export const ActivateBodySchema = z.object({ model_id: z.number().int().positive().max(MAX_ID) });

/**
 * Confidence thresholds: below its class's own threshold an AI label waits in the review queue. Without one, a
 * calibrated model (calibrated: true) uses the class's auto-accept threshold, chosen on the model's
 * cross-validation for the team's target precision (auto; threshold null: the target is out of reach and every
 * label of the class is reviewed); a model of the first releases uses the default.
 */
export const ThresholdsSchema = z.object({
  group_id: z.number().int(),
  default: z.number().min(0).max(1),
  target_precision: z.number().min(0).max(1),
  calibrated: z.boolean(),
  items: z.array(z.object({ class_id: z.number().int(), class_name: z.string(), threshold: z.number().min(0).max(1) })),
  auto: z.array(
    z.object({
      class_id: z.number().int(),
      class_name: z.string(),
      threshold: z.number().nullable(),
      precision: z.number().nullable(),
      /** Share of the class's cross-validated labels the machine accepts. */
      coverage: z.number(),
      predicted: z.number().int(),
    }),
  ),
});
export type Thresholds = z.infer<typeof ThresholdsSchema>;
export const ThresholdsBodySchema = z.object({
  group_id: z.number().int().positive().max(MAX_ID).optional(),
  default: z.number().min(0).max(1).optional(),
  /** Auto-accept target precision of calibrated models (default 0.95). */
  target_precision: z.number().min(0.5).max(0.999).optional(),
  /** threshold null removes the class's own value (the default applies). */
  items: z
    .array(z.object({ class_id: z.number().int().positive().max(MAX_ID), threshold: z.number().min(0).max(1).nullable() }))
    .max(1000)
    .default([]),
});
export type ThresholdsBody = z.infer<typeof ThresholdsBodySchema>;

/**
 * GET /ai/corrected-counts: one station's ROIs captured in [start, end) per class: labelled by people (taken as
 * true), by the team's models (raw, and corrected for each model's cross-validated confusions by adjusted
 * classify-and-count, with a 95% interval), and otherwise (instrument labels, unidentified: not corrected).
 */
export const CorrectedCountsQuerySchema = z.object({
  dev_id: z.string().min(1).max(64),
  start: z.coerce.number().int().min(0).max(8.64e15),
  end: z.coerce.number().int().min(0).max(8.64e15),
});
export type CorrectedCountsQuery = z.infer<typeof CorrectedCountsQuerySchema>;
export const CorrectedCountsSchema = z.object({
  dev_id: z.string(),
  start: z.number(),
  end: z.number(),
  /** Water sampled in the range, litres (0 when the instrument reported none). */
  volume_l: z.number(),
  /** ROIs labelled by models without a cross-validated confusion matrix (first releases): left uncorrected. */
  uncorrectable: z.number().int(),
  items: z.array(
    z.object({
      class_id: z.number().int().nullable(),
      class_name: z.string().nullable(),
      human: z.number().int(),
      model_raw: z.number().int(),
      model_corrected: z.number(),
      model_low: z.number(),
      model_high: z.number(),
      other: z.number().int(),
      /** human + model + other, raw and corrected (the interval covers the model's part). */
      raw: z.number().int(),
      corrected: z.number(),
      low: z.number(),
      high: z.number(),
      /** Per litre; null without volume. */
      concentration_raw: z.number().nullable(),
      concentration_corrected: z.number().nullable(),
      concentration_low: z.number().nullable(),
      concentration_high: z.number().nullable(),
    }),
  ),
});
export type CorrectedCounts = z.infer<typeof CorrectedCountsSchema>;

export const JOB_KINDS = ['reidentify', 'train'] as const;
export const JOB_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JobSchema = z.object({
  id: z.number().int(),
  kind: z.enum(JOB_KINDS),
  group_id: z.number().int(),
  status: z.enum(JOB_STATUSES),
  total: z.number().int(),
  done: z.number().int(),
  /** ROIs whose label changed (re-identification). */
  changed: z.number().int(),
  ipp_id: z.number().int().nullable(),
  dev_id: z.string().nullable(),
  class_id: z.number().int().nullable(),
  class_name: z.string().nullable(),
  start_at: z.number().int().nullable(),
  end_at: z.number().int().nullable(),
  model_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Job = z.infer<typeof JobSchema>;
export const JobsQuerySchema = z.object({
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  kind: z.enum(JOB_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const JobListSchema = z.object({ items: z.array(JobSchema) });
export const JobQuerySchema = z.object({ job_id: z.coerce.number().int().positive().max(MAX_ID) });
export const JobIdBodySchema = z.object({ job_id: z.number().int().positive().max(MAX_ID) });

/** GET /ai/similar: "more like this", nearest ROIs of the caller's team by feature vector. */
export const SimilarQuerySchema = z.object({
  roi_id: z.coerce.number().int().positive().max(MAX_ID),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export const SimilarItemSchema = RoiSummarySchema.extend({ distance: z.number() });
export type SimilarItem = z.infer<typeof SimilarItemSchema>;
export const SimilarSchema = z.object({ items: z.array(SimilarItemSchema) });
export type Similar = z.infer<typeof SimilarSchema>;

/** POST /folders/add, /folders/delete (outside the api prefix): ROIs into / out of a reference folder. */
export const ReferenceBodySchema = z.object({
  roi_index_id: z.number().int().positive().max(MAX_ID),
  roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000),
});
/** POST /folders/query: which reference class is this ROI like (k nearest reference ROIs, weighted vote). */
export const ReferenceQueryBodySchema = z.object({
  roi_id: z.number().int().positive().max(MAX_ID),
  k: z.number().int().min(1).max(50).default(10),
  group_id: z.number().int().positive().max(MAX_ID).optional(),
});
export const ReferenceAnswerSchema = z.object({
  classes: z.array(z.object({ class_id: z.number().int(), class_name: z.string(), score: z.number(), votes: z.number().int() })),
  neighbours: z.array(
    z.object({ roi_id: z.number().int(), folder_id: z.number().int(), class_id: z.number().int(), distance: z.number() }),
  ),
});
export type ReferenceAnswer = z.infer<typeof ReferenceAnswerSchema>;

/** POST /uploads (outside the api prefix, multipart `file`): measure and classify an image without storing it. */
export const UploadAnswerSchema = z.object({
  measures: MeasuresSchema,
  prediction: z.array(ClassScoreSchema).max(3),
  model_id: z.number().int().nullable(),
});
/** POST /enhance (outside the api prefix): a contrast-enhanced rendering of an ROI, as a cached image URL. */
export const EnhanceBodySchema = z.object({ roi_id: z.number().int().positive().max(MAX_ID) });
export const EnhanceResultSchema = z.object({ url: z.string() });
