/**
 * The image, the segmentation, size and shape of the object (docs/recognition.md "Features"): the measures in image
 * pixels and the first sections of the vector, Hu's moment invariants and the contour's signature included.
 */
import type { Shape } from './geometry.ts';
import type { Segment } from './segment.ts';
import { type FeatureWriter, seq } from './writer.ts';

const HU = 7;
const SIGNATURE_SAMPLES = 64;
const HARMONICS = 8;

export const HU_NAMES = seq('hu', HU);
export const SIGNATURE_NAMES = [
  'signature_std',
  'signature_max',
  'signature_min',
  'signature_peaks',
  ...seq('signature_harmonic', HARMONICS),
];

/** The object's size in image pixels (the working crop's measures divided by its scale). */
export interface Size {
  areaPx: number;
  perimeter: number;
  eqDiameter: number;
  major: number;
  minor: number;
  feret: number;
  feretMin: number;
  biovolume: number;
}

export function sizeOf(seg: Segment, shape: Shape, scale: number): Size {
  const areaPx = seg.area;
  const perimeter = shape.perimeter / scale;
  const eqDiameter = 2 * Math.sqrt(areaPx / Math.PI);
  const major = shape.major / scale;
  const minor = shape.minor / scale;
  const feret = shape.feret / scale;
  const feretMin = shape.feretMin / scale;
  const biovolume = (Math.PI / 6) * major * minor * minor;
  return { areaPx, perimeter, eqDiameter, major, minor, feret, feretMin, biovolume };
}

const ln1p = (v: number) => Math.log1p(Math.max(0, v));

/** The image and the segmentation, size, shape, Hu's invariants and the signature. */
export function writeMorphology(
  out: FeatureWriter,
  seg: Segment,
  shape: Shape,
  size: Size,
  image: { width: number; height: number; scale: number },
): void {
  const { width, height, scale } = image;
  const { area } = shape;
  // The image and the segmentation.
  out.set('image_width_log', ln1p(width));
  out.set('image_height_log', ln1p(height));
  out.set('image_aspect_log', Math.log(Math.max(width, height) / Math.max(1, Math.min(width, height))));
  out.set('object_image_share', size.areaPx / (width * height));
  out.set('touches_edge', seg.touchesEdge);
  out.set('segmentation_fallback', seg.fallback);
  out.set('components_log', ln1p(seg.components));
  out.set('largest_share', seg.largestShare);
  // Size.
  out.set('area_log', ln1p(size.areaPx));
  out.set('perimeter_log', ln1p(size.perimeter));
  out.set('equivalent_diameter_log', ln1p(size.eqDiameter));
  out.set('major_axis_log', ln1p(size.major));
  out.set('minor_axis_log', ln1p(size.minor));
  out.set('feret_log', ln1p(size.feret));
  out.set('feret_min_log', ln1p(size.feretMin));
  out.set('biovolume_log', ln1p(size.biovolume));
  out.set('thickness_max_log', ln1p(shape.dtMax / scale));
  out.set('thickness_mean_log', ln1p(shape.dtMean / scale));
  // Shape.
  out.set('elongation_log', Math.log(shape.elongation));
  out.set('eccentricity', shape.eccentricity);
  out.set('solidity', shape.solidity);
  out.set('convexity', shape.convexity);
  out.set('circularity', shape.circularity);
  out.set('hole_share', (seg.area - seg.rawArea) / seg.area);
  out.set('caliper_fill', shape.feret > 0 && shape.feretMin > 0 ? Math.min(1, area / (shape.feret * shape.feretMin)) : 1);
  out.set('feret_major_ratio', shape.feret / shape.major);
  out.set('feret_aspect', shape.feret > 0 ? shape.feretMin / shape.feret : 1);
  out.set('thickness_rel', shape.dtMax / (shape.eqDiameter / 2));
  out.set('thickness_mean_rel', shape.dtMax > 0 ? shape.dtMean / shape.dtMax : 0);
  out.set('thin_share', shape.thinShare);
  out.set('thin_share_rel', shape.thinShareRel);
  const hu = huMoments(shape);
  for (let j = 0; j < HU; j++) out.set(HU_NAMES[j]!, Math.max(-30, Math.log10(Math.abs(hu[j]!))));
  out.setAll(SIGNATURE_NAMES, signature(shape.contour.xs, shape.contour.ys, shape.contour.n, shape.cx, shape.cy));
}

/** Hu's seven moment invariants of the binary object (central moments μpq summed over its pixels). */
function huMoments(s: Shape) {
  const { area: m00, mu20, mu02, mu11, mu30, mu03, mu21, mu12 } = s;
  const e = (mu: number, order: number) => mu / m00 ** (1 + order / 2);
  const n20 = e(mu20, 2);
  const n02 = e(mu02, 2);
  const n11 = e(mu11, 2);
  const n30 = e(mu30, 3);
  const n03 = e(mu03, 3);
  const n21 = e(mu21, 3);
  const n12 = e(mu12, 3);
  const a = n30 + n12;
  const bb = n21 + n03;
  return [
    n20 + n02,
    (n20 - n02) ** 2 + 4 * n11 * n11,
    (n30 - 3 * n12) ** 2 + (3 * n21 - n03) ** 2,
    a * a + bb * bb,
    (n30 - 3 * n12) * a * (a * a - 3 * bb * bb) + (3 * n21 - n03) * bb * (3 * a * a - bb * bb),
    (n20 - n02) * (a * a - bb * bb) + 4 * n11 * a * bb,
    (3 * n21 - n03) * a * (a * a - 3 * bb * bb) - (n30 - 3 * n12) * bb * (3 * a * a - bb * bb),
  ];
}

/**
 * Centroid-distance signature of the contour, resampled to SIGNATURE_SAMPLES points equally spaced along it and
 * divided by its mean: standard deviation, maximum, minimum, the number of protrusions (local maxima over 1.15),
 * and the magnitudes of its first HARMONICS Fourier harmonics (rotation- and start-invariant).
 */
function signature(xs: Int32Array, ys: Int32Array, n: number, cx: number, cy: number): number[] {
  const out = new Array<number>(4 + HARMONICS).fill(0);
  if (n < 3) return out;
  const cum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    cum[i + 1] = cum[i]! + Math.hypot(xs[j]! - xs[i]!, ys[j]! - ys[i]!);
  }
  const length = cum[n]!;
  const s = new Float64Array(SIGNATURE_SAMPLES);
  let seg = 0;
  for (let k = 0; k < SIGNATURE_SAMPLES; k++) {
    const at = (k / SIGNATURE_SAMPLES) * length;
    while (seg < n - 1 && cum[seg + 1]! < at) seg++;
    const span = cum[seg + 1]! - cum[seg]!;
    const t = span > 0 ? (at - cum[seg]!) / span : 0;
    const j = (seg + 1) % n;
    const x = xs[seg]! + t * (xs[j]! - xs[seg]!);
    const y = ys[seg]! + t * (ys[j]! - ys[seg]!);
    s[k] = Math.hypot(x - cx, y - cy);
  }
  let mean = 0;
  for (const v of s) mean += v;
  mean /= SIGNATURE_SAMPLES;
  if (mean <= 0) return out;
  let varSum = 0;
  let max = 0;
  let min = Infinity;
  for (let k = 0; k < SIGNATURE_SAMPLES; k++) {
    s[k] = s[k]! / mean;
    varSum += (s[k]! - 1) ** 2;
    max = Math.max(max, s[k]!);
    min = Math.min(min, s[k]!);
  }
  let peaks = 0;
  for (let k = 0; k < SIGNATURE_SAMPLES; k++) {
    const v = s[k]!;
    if (v < 1.15) continue;
    let top = true;
    for (let d = 1; d <= 3 && top; d++) {
      if (s[(k + d) % SIGNATURE_SAMPLES]! > v || s[(k - d + SIGNATURE_SAMPLES) % SIGNATURE_SAMPLES]! >= v) top = false;
    }
    if (top) peaks++;
  }
  out[0] = Math.sqrt(varSum / SIGNATURE_SAMPLES);
  out[1] = max;
  out[2] = min;
  out[3] = peaks;
  for (let f = 1; f <= HARMONICS; f++) {
    let re = 0;
    let im = 0;
    for (let k = 0; k < SIGNATURE_SAMPLES; k++) {
      const a = (2 * Math.PI * f * k) / SIGNATURE_SAMPLES;
      re += s[k]! * Math.cos(a);
      im -= s[k]! * Math.sin(a);
    }
    out[3 + f] = Math.hypot(re, im) / SIGNATURE_SAMPLES;
  }
  return out;
}
