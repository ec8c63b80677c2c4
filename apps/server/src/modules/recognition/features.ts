import { type Crop, workingCrop } from './features/crop.ts';
import { writeCore, writeStructure } from './features/core.ts';
import { shapeOf } from './features/geometry.ts';
import { decodeImage, greyOf, type RawImage } from './features/image.ts';
import { objectStats, writeColour, writeIntensity } from './features/intensity.ts';
import { sizeOf, writeMorphology } from './features/morphology.ts';
import { FEATURE_LAYOUT, FEATURE_NAMES } from './features/names.ts';
import { writeProfiles } from './features/profiles.ts';
import { segment, type Segment } from './features/segment.ts';
import { smallCrop } from './features/texture.ts';
import { writeTexture } from './features/texture-features.ts';

/**
 * Measured features of an ROI image (docs/recognition.md "Features"): the organism is segmented, measured (size,
 * shape, intensity, colour, texture) and described by a fixed-length vector for the classifier and similarity.
 * The parts live in features/: segmentation, the working crop, and one module per section of the vector, each
 * setting its values by name (features/names.ts lists them in order, features/writer.ts places them).
 */

export { FEATURE_NAMES, type RawImage, decodeImage, greyOf };
export { enhanceImage } from './features/enhance.ts';

/** Bump whenever the vector changes: stored vectors of another version are recomputed. */
export const FEATURE_VERSION = 1;

/** Binarization threshold of our instruments when a station's configuration gives none. */
export const DEFAULT_THRESHOLD = 3;

/** Texture and profiles are computed on a copy of the object's crop whose longer side is at most this. */
const SMALL_SIDE = 128;

/** Morphology in pixels of the original image; the same fields as MeasuresSchema (packages/contracts). */
export interface Measures {
  area_px: number;
  perimeter_px: number;
  equivalent_diameter_px: number;
  major_axis_px: number;
  minor_axis_px: number;
  feret_px: number;
  elongation: number;
  eccentricity: number;
  solidity: number;
  convexity: number;
  circularity: number;
  mean_intensity: number;
  biovolume_px3: number;
}

export interface RoiFeatures {
  version: number;
  values: Float32Array;
  measures: Measures;
}

const ZERO_MEASURES: Measures = {
  area_px: 0,
  perimeter_px: 0,
  equivalent_diameter_px: 0,
  major_axis_px: 0,
  minor_axis_px: 0,
  feret_px: 0,
  elongation: 0,
  eccentricity: 0,
  solidity: 0,
  convexity: 0,
  circularity: 0,
  mean_intensity: 0,
  biovolume_px3: 0,
};

/**
 * The features of an image's organism. `threshold` is the instrument's binarization threshold (default 3): grey
 * levels at least that far above the background (the median of the frame's edge) are object (features/segment.ts
 * for the fallback). An image without an object gives all zeros. `grey` is greyOf(img) where the caller has it.
 */
export function featuresOfPixels(
  img: RawImage,
  opts: { threshold?: number; stages?: StageTimes; grey?: Uint8Array } = {},
): RoiFeatures {
  checkPixels(img);
  const { width, height } = img;
  const threshold = opts.threshold !== undefined && Number.isFinite(opts.threshold) ? opts.threshold : DEFAULT_THRESHOLD;
  const lap = lapper(opts.stages);
  // The caller may have it already (vector.ts gives the network's input the same grey).
  const grey = opts.grey ?? greyOf(img);
  lap('grey');
  const seg = segment(grey, width, height, threshold);
  lap('segment');
  if (!seg) return { version: FEATURE_VERSION, values: new Float32Array(FEATURE_NAMES.length), measures: { ...ZERO_MEASURES } };
  const crop = workingCrop(seg, img, grey);
  lap('crop');
  const { values, measures } = measure(seg, crop, width, height, lap);
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) values[i] = 0;
  for (const key of Object.keys(measures) as (keyof Measures)[]) if (!Number.isFinite(measures[key])) measures[key] = 0;
  return { version: FEATURE_VERSION, values, measures };
}

function measure(
  seg: Segment,
  crop: Crop,
  width: number,
  height: number,
  lap: (stage: string) => void,
): { values: Float32Array; measures: Measures } {
  const { mask, w, h, grey, scale } = crop;
  const out = FEATURE_LAYOUT.writer();
  const shape = shapeOf(mask, w, h);
  const { cx, cy, theta } = shape;
  const size = sizeOf(seg, shape, scale);
  lap('shape');
  const stats = objectStats(crop, shape, seg.cut);
  lap('object statistics');

  writeMorphology(out, seg, shape, size, { width, height, scale });
  lap('morphology');
  const small = smallCrop(grey, w, h, mask, 0, 0, w, h, SMALL_SIDE);
  const scx = ((cx + 0.5) * small.w) / w - 0.5;
  const scy = ((cy + 0.5) * small.h) / h - 0.5;
  lap('small crop');
  writeProfiles(out, small, scx, scy, theta);
  lap('profiles');
  writeCore(out, stats.core, shape, w, h);
  lap('core');
  writeStructure(out, small, scx, scy, theta, shape.major * Math.max(small.w / w, small.h / h));
  lap('structure');
  writeIntensity(out, stats, shape, scale);
  writeColour(out, stats);
  lap('intensity and colour');
  writeTexture(out, small, theta);
  lap('texture');

  return {
    values: out.finish(),
    measures: {
      area_px: size.areaPx,
      perimeter_px: size.perimeter,
      equivalent_diameter_px: size.eqDiameter,
      major_axis_px: size.major,
      minor_axis_px: size.minor,
      feret_px: size.feret,
      elongation: shape.elongation,
      eccentricity: shape.eccentricity,
      solidity: shape.solidity,
      convexity: shape.convexity,
      circularity: shape.circularity,
      mean_intensity: stats.meanGrey,
      biovolume_px3: size.biovolume,
    },
  };
}

/** Throws a RangeError for pixels that are not width × height × channels bytes of 1-4 channels. */
export function checkPixels(img: RawImage): void {
  const { width, height, channels } = img;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError('image dimensions must be non-negative integers');
  }
  if (!(channels >= 1 && channels <= 4) || img.data.length < width * height * channels) {
    throw new RangeError('image data does not hold width × height × channels bytes (1-4 channels)');
  }
}

/** Milliseconds per stage of featuresOfPixels, added up over calls (bench:stages); absent, nothing is timed. */
export type StageTimes = Map<string, number>;

function lapper(stages: StageTimes | undefined): (stage: string) => void {
  if (!stages) return () => {};
  let t = performance.now();
  return (stage) => {
    const now = performance.now();
    stages.set(stage, (stages.get(stage) ?? 0) + now - t);
    t = now;
  };
}

export async function featuresOfImage(data: Buffer, opts: { threshold?: number } = {}): Promise<RoiFeatures> {
  return featuresOfPixels(await decodeImage(data), opts);
}
