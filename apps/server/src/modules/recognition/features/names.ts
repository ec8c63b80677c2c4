/** The names of the measured feature vector, in order (docs/recognition.md "Features" describes each). */
import { LEVEL_NAMES, SKELETON_NAMES, SYMMETRY_NAMES } from './core.ts';
import { HUE_NAMES, INTENSITY_HIST_NAMES } from './intensity.ts';
import { HU_NAMES, SIGNATURE_NAMES } from './morphology.ts';
import { AXIS_PROFILE_NAMES, RADIAL_PROFILE_NAMES } from './profiles.ts';
import { BAND_NAMES, GLCM_VECTOR_NAMES, LBP_NAMES, ORIENTATION_NAMES } from './texture-features.ts';
import { featureLayout } from './writer.ts';

/** One name per vector entry, in order; the code sets each value by its name (writer.ts). */
export const FEATURE_NAMES: readonly string[] = Object.freeze([
  // The image and the segmentation.
  'image_width_log',
  'image_height_log',
  'image_aspect_log',
  'object_image_share',
  'touches_edge',
  'segmentation_fallback',
  'components_log',
  'largest_share',
  // Size, ln(1 + pixels).
  'area_log',
  'perimeter_log',
  'equivalent_diameter_log',
  'major_axis_log',
  'minor_axis_log',
  'feret_log',
  'feret_min_log',
  'biovolume_log',
  'thickness_max_log',
  'thickness_mean_log',
  // Shape, dimensionless.
  'elongation_log',
  'eccentricity',
  'solidity',
  'convexity',
  'circularity',
  'hole_share',
  'caliper_fill',
  'feret_major_ratio',
  'feret_aspect',
  'thickness_rel',
  'thickness_mean_rel',
  'thin_share',
  'thin_share_rel',
  ...HU_NAMES,
  ...SIGNATURE_NAMES,
  ...AXIS_PROFILE_NAMES,
  ...RADIAL_PROFILE_NAMES,
  // The bright core: object pixels above Otsu's cut of the object's own grey levels.
  'core_share',
  'core_components_log',
  'core_largest_share',
  'core_major_ratio',
  'core_minor_ratio',
  'core_elongation_log',
  'core_solidity',
  'core_circularity',
  'core_convexity',
  'core_feret_ratio',
  'core_offset',
  'core_thin_share',
  'core_axis_alignment',
  ...LEVEL_NAMES,
  ...SYMMETRY_NAMES,
  ...SKELETON_NAMES,
  // Grey level inside the object.
  'intensity_mean',
  'intensity_std',
  'intensity_skew',
  'intensity_kurtosis',
  'intensity_p10',
  'intensity_p25',
  'intensity_p50',
  'intensity_p75',
  'intensity_p90',
  'intensity_max',
  'intensity_sum_log',
  'intensity_cv',
  'intensity_edge_core',
  'intensity_centroid_offset',
  ...INTENSITY_HIST_NAMES,
  // Colour inside the object.
  'chroma_r',
  'chroma_g',
  'chroma_b',
  'opponent_rg_mean',
  'opponent_rg_std',
  'opponent_yb_mean',
  'opponent_yb_std',
  'saturation_mean',
  'saturation_std',
  'bright_rg',
  'bright_yb',
  'dim_rg',
  'dim_yb',
  ...HUE_NAMES,
  // Texture.
  'gradient_rel',
  'laplacian_rel',
  ...ORIENTATION_NAMES,
  ...LBP_NAMES,
  ...GLCM_VECTOR_NAMES,
  ...BAND_NAMES,
]);

/** Each name's position, computed once. */
export const FEATURE_LAYOUT = featureLayout(FEATURE_NAMES);
