import sharp from 'sharp';
import { THIN_PX, shapeOf, type Shape } from './features/geometry.ts';
import { borderMedian, largestComponent, otsuOfHistogram, segment, type Segment } from './features/segment.ts';
import { LEVELS, bandEnergies, levelStats, skeletonStats, symmetry } from './features/structure.ts';
import {
  GLCM_NAMES,
  GRADIENT_BINS,
  LBP_BINS,
  glcm,
  gradientFeatures,
  lbp,
  smallCrop,
  type SmallCrop,
} from './features/texture.ts';

/**
 * Measured features of an ROI image (docs/recognition.md "Features"): the organism is segmented, measured (size,
 * shape, intensity, colour, texture) and described by a fixed-length vector for the classifier and similarity.
 */

/** Bump whenever the vector changes: stored vectors of another version are recomputed. */
export const FEATURE_VERSION = 1;

/** Binarization threshold of our instruments when a station's configuration gives none. */
export const DEFAULT_THRESHOLD = 3;

/** Texture and profiles are computed on a copy of the object's crop whose longer side is at most this. */
const SMALL_SIDE = 128;
/** Objects longer than this (px) are measured on an area-averaged copy this long; measures are scaled back. */
const WORK_SIDE = 400;
const HU = 7;
const SIGNATURE_SAMPLES = 64;
const HARMONICS = 8;
const PROFILE_BINS = 8;
const RINGS = 8;
const INTENSITY_BINS = 8;
const HUE_BINS = 6;

const seq = (prefix: string, n: number, from = 1) => Array.from({ length: n }, (_, i) => `${prefix}${i + from}`);

/** One name per vector entry, in order; docs/recognition.md "Features" describes each. */
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
  ...seq('hu', HU),
  'signature_std',
  'signature_max',
  'signature_min',
  'signature_peaks',
  ...seq('signature_harmonic', HARMONICS),
  ...seq('width_profile', PROFILE_BINS),
  ...seq('intensity_profile', PROFILE_BINS),
  ...seq('radial_fill', RINGS),
  ...seq('radial_intensity', RINGS),
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
  ...LEVELS.flatMap((l) => [`level${Math.round(l * 100)}_share`, `level${Math.round(l * 100)}_parts_log`]),
  'symmetry_turn_mask',
  'symmetry_turn_grey',
  'symmetry_major_mask',
  'symmetry_major_grey',
  'symmetry_minor_mask',
  'symmetry_minor_grey',
  'skeleton_length_rel',
  'skeleton_ends_log',
  'skeleton_branches_log',
  'skeleton_end_share',
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
  ...seq('intensity_hist', INTENSITY_BINS),
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
  ...seq('hue', HUE_BINS),
  // Texture.
  'gradient_rel',
  'laplacian_rel',
  ...seq('gradient_orientation', GRADIENT_BINS),
  ...seq('lbp1_', LBP_BINS, 0),
  ...seq('lbp2_', LBP_BINS, 0),
  ...seq('lbp4_', LBP_BINS, 0),
  ...GLCM_NAMES.map((n) => `glcm1_${n}`),
  ...GLCM_NAMES.map((n) => `glcm3_${n}`),
  'band0_energy',
  'band1_energy',
  'band2_energy',
  'structure_coherence',
]);

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

/** Decoded pixels, 8 bits per channel, interleaved: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA. */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
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

const ln1p = (v: number) => Math.log1p(Math.max(0, v));

/** Grey level (Rec. 601 luma) of each pixel; alpha darkens towards the (black) background. */
export function greyOf(img: RawImage): Uint8Array {
  const { data, width, height, channels } = img;
  const n = width * height;
  const grey = new Uint8Array(n);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    if (channels >= 3) {
      const v = (77 * data[p]! + 150 * data[p + 1]! + 29 * data[p + 2]! + 128) >> 8;
      grey[i] = channels === 4 ? Math.round((v * data[p + 3]!) / 255) : v;
    } else {
      grey[i] = channels === 2 ? Math.round((data[p]! * data[p + 1]!) / 255) : data[p]!;
    }
  }
  return grey;
}

/** The object's crop at working resolution: its mask (outer ring background) and its grey and colour planes. */
interface Crop {
  w: number;
  h: number;
  mask: Uint8Array;
  grey: Uint8Array;
  r: Uint8Array;
  g: Uint8Array;
  b: Uint8Array;
  /** Working pixels per image pixel (1, or less for a crop longer than WORK_SIDE). */
  scale: number;
}

/**
 * Copies the segment's crop out of the image; a crop longer than WORK_SIDE is area-averaged down to it (the mask
 * keeps the working pixels at least half object, then its largest part with holes filled).
 */
function workingCrop(seg: Segment, img: RawImage, grey: Uint8Array): Crop {
  const { width, channels, data } = img;
  const { x0, y0, w, h } = seg;
  // The object's box (the crop without its pad) maps onto the working box; the pad is added back around it.
  const bw = w - 2;
  const bh = h - 2;
  const scale = Math.min(1, WORK_SIDE / Math.max(bw, bh));
  const ww = Math.max(1, Math.round(bw * scale));
  const wh = Math.max(1, Math.round(bh * scale));
  const cw = ww + 2;
  const ch = wh + 2;
  const n = cw * ch;
  const crop: Crop = {
    w: cw,
    h: ch,
    mask: new Uint8Array(n),
    grey: new Uint8Array(n),
    r: new Uint8Array(n),
    g: new Uint8Array(n),
    b: new Uint8Array(n),
    scale,
  };
  const colour = channels >= 3;
  const alpha = channels === 4;
  if (scale === 1) {
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1; x < w - 1; x++) {
        const i = y * w + x;
        const p = (y + y0) * width + x + x0;
        crop.mask[i] = seg.mask[i]!;
        crop.grey[i] = grey[p]!;
        if (colour) {
          const q = p * channels;
          const a = alpha ? data[q + 3]! / 255 : 1;
          crop.r[i] = alpha ? Math.round(data[q]! * a) : data[q]!;
          crop.g[i] = alpha ? Math.round(data[q + 1]! * a) : data[q + 1]!;
          crop.b[i] = alpha ? Math.round(data[q + 2]! * a) : data[q + 2]!;
        } else {
          crop.r[i] = crop.g[i] = crop.b[i] = grey[p]!;
        }
      }
    }
    return crop;
  }
  const m = ww * wh;
  const sumR = new Float64Array(m);
  const sumG = new Float64Array(m);
  const sumB = new Float64Array(m);
  const inside = new Uint32Array(m);
  const count = new Uint32Array(m);
  const colOf = new Int32Array(bw);
  for (let x = 0; x < bw; x++) colOf[x] = Math.min(ww - 1, Math.floor((x * ww) / bw));
  for (let y = 0; y < bh; y++) {
    const row = Math.min(wh - 1, Math.floor((y * wh) / bh)) * ww;
    const src = (y + y0 + 1) * width + x0 + 1;
    const msk = (y + 1) * w + 1;
    for (let x = 0; x < bw; x++) {
      const d = row + colOf[x]!;
      const p = src + x;
      count[d]!++;
      inside[d]! += seg.mask[msk + x]!;
      if (colour) {
        const q = p * channels;
        const a = alpha ? data[q + 3]! / 255 : 1;
        sumR[d]! += data[q]! * a;
        sumG[d]! += data[q + 1]! * a;
        sumB[d]! += data[q + 2]! * a;
      } else {
        sumR[d]! += grey[p]!;
      }
    }
  }
  for (let y = 0; y < wh; y++) {
    for (let x = 0; x < ww; x++) {
      const d = y * ww + x;
      const c = count[d]!;
      const i = (y + 1) * cw + x + 1;
      const R = Math.round(sumR[d]! / c);
      if (colour) {
        const G = Math.round(sumG[d]! / c);
        const B = Math.round(sumB[d]! / c);
        crop.r[i] = R;
        crop.g[i] = G;
        crop.b[i] = B;
        crop.grey[i] = (77 * R + 150 * G + 29 * B + 128) >> 8;
      } else {
        crop.r[i] = crop.g[i] = crop.b[i] = crop.grey[i] = R;
      }
      crop.mask[i] = inside[d]! * 2 >= c ? 1 : 0;
    }
  }
  crop.mask = largestComponent(crop.mask, cw, ch).mask;
  return crop;
}

/**
 * The features of an image's organism. `threshold` is the instrument's binarization threshold (default 3): grey
 * levels at least that far above the background (the median of the frame's edge) are object (features/segment.ts
 * for the fallback). An image without an object gives all zeros.
 */
export function featuresOfPixels(img: RawImage, opts: { threshold?: number } = {}): RoiFeatures {
  const { width, height, channels } = img;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError('image dimensions must be non-negative integers');
  }
  if (!(channels >= 1 && channels <= 4) || img.data.length < width * height * channels) {
    throw new RangeError('image data does not hold width × height × channels bytes (1-4 channels)');
  }
  const values = new Float32Array(FEATURE_NAMES.length);
  const threshold = opts.threshold !== undefined && Number.isFinite(opts.threshold) ? opts.threshold : DEFAULT_THRESHOLD;
  const grey = greyOf(img);
  const seg = segment(grey, width, height, threshold);
  if (!seg) return { version: FEATURE_VERSION, values, measures: { ...ZERO_MEASURES } };
  const measures = measure(seg, workingCrop(seg, img, grey), width, height, values);
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) values[i] = 0;
  for (const key of Object.keys(measures) as (keyof Measures)[]) if (!Number.isFinite(measures[key])) measures[key] = 0;
  return { version: FEATURE_VERSION, values, measures };
}

function measure(seg: Segment, crop: Crop, width: number, height: number, values: Float32Array): Measures {
  const { mask, w, h, grey, r, g, b, scale } = crop;
  let k = 0;
  const put = (v: number) => {
    values[k++] = v;
  };
  const shape = shapeOf(mask, w, h);
  const { area, cx, cy, theta, dt } = shape;
  // Measures in image pixels.
  const areaPx = seg.area;
  const perimeter = shape.perimeter / scale;
  const eqDiameter = 2 * Math.sqrt(areaPx / Math.PI);
  const major = shape.major / scale;
  const minor = shape.minor / scale;
  const feret = shape.feret / scale;
  const feretMin = shape.feretMin / scale;

  // Grey histogram and intensity-weighted centroid.
  let gSum = 0;
  let gxSum = 0;
  let gySum = 0;
  const hist = new Uint32Array(256);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      const v = grey[y * w + x]!;
      hist[v]!++;
      gSum += v;
      gxSum += v * x;
      gySum += v * y;
    }
  }
  const meanGrey = gSum / area;
  const percentile = (p: number) => {
    const target = p * area;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += hist[v]!;
      if (seen >= target) return v;
    }
    return 255;
  };
  const p25 = percentile(0.25);
  const p75 = percentile(0.75);
  const otsu = otsuOfHistogram(hist);
  // A uniform object is all core.
  const coreCut = otsu > 255 ? 0 : Math.max(seg.cut, otsu);

  // Grey moments, colour, the bright core, the grey of thin structure.
  let g2 = 0;
  let g3 = 0;
  let g4 = 0;
  let sumR = 0;
  let sumG = 0;
  let sumB = 0;
  let rgSum = 0;
  let rg2 = 0;
  let ybSum = 0;
  let yb2 = 0;
  let satSum = 0;
  let sat2 = 0;
  let brightN = 0;
  let brightRg = 0;
  let brightYb = 0;
  let dimN = 0;
  let dimRg = 0;
  let dimYb = 0;
  let edgeGrey = 0;
  let edgeN = 0;
  const hue = new Float64Array(HUE_BINS);
  let hueTotal = 0;
  const core = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      const v = grey[i]!;
      if (v >= coreCut) core[i] = 1;
      if (dt[i]! <= THIN_PX * scale) {
        edgeGrey += v;
        edgeN++;
      }
      const d = v - meanGrey;
      g2 += d * d;
      g3 += d * d * d;
      g4 += d * d * d * d;
      const R = r[i]!;
      const G = g[i]!;
      const B = b[i]!;
      sumR += R;
      sumG += G;
      sumB += B;
      const rg = (R - G) / 255;
      const yb = ((R + G) / 2 - B) / 255;
      rgSum += rg;
      rg2 += rg * rg;
      ybSum += yb;
      yb2 += yb * yb;
      const mx = Math.max(R, G, B);
      const mn = Math.min(R, G, B);
      const sat = mx > 0 ? (mx - mn) / mx : 0;
      satSum += sat;
      sat2 += sat * sat;
      if (mx > mn) {
        // Hue on the colour wheel (0-6), weighted by chroma.
        const c = mx - mn;
        const hh = mx === R ? ((G - B) / c + 6) % 6 : mx === G ? (B - R) / c + 2 : (R - G) / c + 4;
        hue[Math.min(HUE_BINS - 1, Math.floor((hh / 6) * HUE_BINS))]! += c;
        hueTotal += c;
      }
      if (v >= p75) {
        brightN++;
        brightRg += rg;
        brightYb += yb;
      }
      if (v <= p25) {
        dimN++;
        dimRg += rg;
        dimYb += yb;
      }
    }
  }
  const coreN = area - edgeN;
  const edgeCore = edgeN > 0 && coreN > 0 ? edgeGrey / edgeN / ((gSum - edgeGrey) / coreN + 1) : 1;
  const biovolume = (Math.PI / 6) * major * minor * minor;

  // The image and the segmentation.
  put(ln1p(width));
  put(ln1p(height));
  put(Math.log(Math.max(width, height) / Math.max(1, Math.min(width, height))));
  put(areaPx / (width * height));
  put(seg.touchesEdge);
  put(seg.fallback);
  put(ln1p(seg.components));
  put(seg.largestShare);
  // Size.
  put(ln1p(areaPx));
  put(ln1p(perimeter));
  put(ln1p(eqDiameter));
  put(ln1p(major));
  put(ln1p(minor));
  put(ln1p(feret));
  put(ln1p(feretMin));
  put(ln1p(biovolume));
  put(ln1p(shape.dtMax / scale));
  put(ln1p(shape.dtMean / scale));
  // Shape.
  put(Math.log(shape.elongation));
  put(shape.eccentricity);
  put(shape.solidity);
  put(shape.convexity);
  put(shape.circularity);
  put((seg.area - seg.rawArea) / seg.area);
  put(shape.feret > 0 && shape.feretMin > 0 ? Math.min(1, area / (shape.feret * shape.feretMin)) : 1);
  put(shape.feret / shape.major);
  put(shape.feret > 0 ? shape.feretMin / shape.feret : 1);
  put(shape.dtMax / (shape.eqDiameter / 2));
  put(shape.dtMax > 0 ? shape.dtMean / shape.dtMax : 0);
  put(shape.thinShare);
  put(shape.thinShareRel);
  for (const hu of huMoments(shape)) put(Math.max(-30, Math.log10(Math.abs(hu))));
  for (const v of signature(shape.contour.xs, shape.contour.ys, shape.contour.n, cx, cy)) put(v);
  const small = smallCrop(grey, w, h, mask, 0, 0, w, h, SMALL_SIDE);
  const scx = ((cx + 0.5) * small.w) / w - 0.5;
  const scy = ((cy + 0.5) * small.h) / h - 0.5;
  for (const v of axisProfiles(small, scx, scy, theta)) put(v);
  for (const v of radialProfiles(small, scx, scy)) put(v);
  // The bright core.
  const coreParts = largestComponent(core, w, h);
  let coreTotal = 0;
  for (let i = 0; i < core.length; i++) coreTotal += core[i]!;
  put(coreTotal / area);
  put(ln1p(coreParts.components));
  if (coreParts.area > 0) {
    const cs = shapeOf(coreParts.mask, w, h);
    put(cs.area / area);
    put(cs.major / shape.major);
    put(cs.minor / shape.minor);
    put(Math.log(cs.elongation));
    put(cs.solidity);
    put(cs.circularity);
    put(cs.convexity);
    put(shape.feret > 0 ? cs.feret / shape.feret : 0);
    put(Math.hypot(cs.cx - cx, cs.cy - cy) / (shape.eqDiameter / 2));
    put(cs.thinShare);
    put(Math.cos(2 * (cs.theta - theta)));
  } else {
    for (let j = 0; j < 11; j++) put(0);
  }
  for (const v of levelStats(small)) put(v);
  for (const v of symmetry(small, scx, scy, theta)) put(v);
  const smallMajor = shape.major * Math.max(small.w / w, small.h / h);
  for (const v of skeletonStats(small, smallMajor)) put(v);

  // Grey level.
  const sd = Math.sqrt(g2 / area);
  put(meanGrey);
  put(sd);
  put(sd > 1e-9 ? g3 / area / sd ** 3 : 0);
  put(sd > 1e-9 ? g4 / area / sd ** 4 - 3 : 0);
  for (const p of [0.1, 0.25, 0.5, 0.75, 0.9]) put(percentile(p));
  put(percentile(1));
  put(ln1p(gSum / (scale * scale)));
  put(sd / (meanGrey + 1));
  put(edgeCore);
  put(gSum > 0 ? Math.hypot(gxSum / gSum - cx, gySum / gSum - cy) / (shape.eqDiameter / 2) : 0);
  for (let bin = 0; bin < INTENSITY_BINS; bin++) {
    let c = 0;
    for (let v = bin * (256 / INTENSITY_BINS); v < (bin + 1) * (256 / INTENSITY_BINS); v++) c += hist[v]!;
    put(c / area);
  }
  // Colour.
  const rgb = sumR + sumG + sumB;
  put(rgb > 0 ? sumR / rgb : 1 / 3);
  put(rgb > 0 ? sumG / rgb : 1 / 3);
  put(rgb > 0 ? sumB / rgb : 1 / 3);
  put(rgSum / area);
  put(Math.sqrt(Math.max(0, rg2 / area - (rgSum / area) ** 2)));
  put(ybSum / area);
  put(Math.sqrt(Math.max(0, yb2 / area - (ybSum / area) ** 2)));
  put(satSum / area);
  put(Math.sqrt(Math.max(0, sat2 / area - (satSum / area) ** 2)));
  put(brightN ? brightRg / brightN : 0);
  put(brightN ? brightYb / brightN : 0);
  put(dimN ? dimRg / dimN : 0);
  put(dimN ? dimYb / dimN : 0);
  for (let j = 0; j < HUE_BINS; j++) put(hueTotal > 0 ? hue[j]! / hueTotal : 0);
  // Texture.
  const grad = gradientFeatures(small, theta);
  put(grad.gradient);
  put(grad.laplacian);
  for (const v of grad.orientation) put(v);
  for (const v of lbp(small, 1)) put(v);
  for (const v of lbp(small, 2)) put(v);
  for (const v of lbp(small, 4)) put(v);
  for (const v of glcm(small, 1)) put(v);
  for (const v of glcm(small, 3)) put(v);
  for (const v of bandEnergies(small)) put(v);

  if (k !== FEATURE_NAMES.length) throw new Error(`feature vector has ${k} entries, FEATURE_NAMES ${FEATURE_NAMES.length}`);
  return {
    area_px: areaPx,
    perimeter_px: perimeter,
    equivalent_diameter_px: eqDiameter,
    major_axis_px: major,
    minor_axis_px: minor,
    feret_px: feret,
    elongation: shape.elongation,
    eccentricity: shape.eccentricity,
    solidity: shape.solidity,
    convexity: shape.convexity,
    circularity: shape.circularity,
    mean_intensity: meanGrey,
    biovolume_px3: biovolume,
  };
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

/**
 * Along the major axis, in PROFILE_BINS slices: the object's width (relative to its widest slice) and mean grey
 * (relative to the object's), the heavier end first so that a flipped image gives the same profile.
 */
function axisProfiles(c: SmallCrop, cx: number, cy: number, theta: number): number[] {
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  let uMin = Infinity;
  let uMax = -Infinity;
  let skew = 0;
  for (let y = 0; y < c.h; y++) {
    for (let x = 0; x < c.w; x++) {
      if (!c.mask[y * c.w + x]) continue;
      const u = (x - cx) * cos + (y - cy) * sin;
      uMin = Math.min(uMin, u);
      uMax = Math.max(uMax, u);
      skew += u * u * u;
    }
  }
  const out = new Array<number>(2 * PROFILE_BINS).fill(0);
  if (!(uMax >= uMin)) return out;
  const vMin = new Float64Array(PROFILE_BINS).fill(Infinity);
  const vMax = new Float64Array(PROFILE_BINS).fill(-Infinity);
  const sum = new Float64Array(PROFILE_BINS);
  const count = new Float64Array(PROFILE_BINS);
  const span = uMax - uMin + 1e-9;
  let total = 0;
  let totalN = 0;
  for (let y = 0; y < c.h; y++) {
    for (let x = 0; x < c.w; x++) {
      const i = y * c.w + x;
      if (!c.mask[i]) continue;
      const u = (x - cx) * cos + (y - cy) * sin;
      const v = -(x - cx) * sin + (y - cy) * cos;
      let bin = Math.min(PROFILE_BINS - 1, Math.floor(((u - uMin) / span) * PROFILE_BINS));
      if (skew < 0) bin = PROFILE_BINS - 1 - bin;
      if (v < vMin[bin]!) vMin[bin] = v;
      if (v > vMax[bin]!) vMax[bin] = v;
      sum[bin]! += c.grey[i]!;
      count[bin]!++;
      total += c.grey[i]!;
      totalN++;
    }
  }
  let widest = 0;
  for (let i = 0; i < PROFILE_BINS; i++) if (count[i]) widest = Math.max(widest, vMax[i]! - vMin[i]! + 1);
  const mean = total / totalN;
  for (let i = 0; i < PROFILE_BINS; i++) {
    if (!count[i]) continue;
    out[i] = (vMax[i]! - vMin[i]! + 1) / widest;
    out[PROFILE_BINS + i] = mean > 0 ? sum[i]! / count[i]! / mean : 0;
  }
  return out;
}

/**
 * In RINGS concentric rings around the centroid out to the farthest object pixel: the share of the ring that is
 * object, and the object's mean grey in the ring relative to the whole object's.
 */
function radialProfiles(c: SmallCrop, cx: number, cy: number): number[] {
  const out = new Array<number>(2 * RINGS).fill(0);
  let rMax = 0;
  for (let y = 0; y < c.h; y++) {
    for (let x = 0; x < c.w; x++) if (c.mask[y * c.w + x]) rMax = Math.max(rMax, Math.hypot(x - cx, y - cy));
  }
  const inside = new Float64Array(RINGS);
  const sum = new Float64Array(RINGS);
  let total = 0;
  let totalN = 0;
  const scale = rMax > 0 ? RINGS / (rMax + 1e-9) : 0;
  for (let y = 0; y < c.h; y++) {
    for (let x = 0; x < c.w; x++) {
      const i = y * c.w + x;
      if (!c.mask[i]) continue;
      const ring = Math.min(RINGS - 1, Math.floor(Math.hypot(x - cx, y - cy) * scale));
      inside[ring]!++;
      sum[ring]! += c.grey[i]!;
      total += c.grey[i]!;
      totalN++;
    }
  }
  if (totalN === 0) return out;
  const mean = total / totalN;
  for (let ring = 0; ring < RINGS; ring++) {
    const r1 = (ring / RINGS) * rMax;
    const r2 = ((ring + 1) / RINGS) * rMax;
    const ringArea = Math.max(1, Math.PI * (r2 * r2 - r1 * r1));
    out[ring] = Math.min(1, inside[ring]! / ringArea);
    out[RINGS + ring] = inside[ring] && mean > 0 ? sum[ring]! / inside[ring]! / mean : 0;
  }
  return out;
}

/** Decodes an image (PNG, JPEG, WebP, TIFF…) to 8-bit interleaved pixels. */
export async function decodeImage(data: Buffer): Promise<RawImage> {
  const { data: pixels, info } = await sharp(data, { limitInputPixels: 50_000_000 })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length),
    width: info.width,
    height: info.height,
    channels: info.channels,
  };
}

export async function featuresOfImage(data: Buffer, opts: { threshold?: number } = {}): Promise<RoiFeatures> {
  return featuresOfPixels(await decodeImage(data), opts);
}

/**
 * A contrast-enhanced rendering for the viewer, as PNG: the grey level is stretched from the background (the
 * frame's edge median) to the 99.5th percentile of the pixels above it, then lifted by a gamma of 0.6 so that
 * faint appendages show; each pixel's channels are scaled together, so colours keep their hue.
 */
export async function enhanceImage(data: Buffer): Promise<Buffer> {
  const img = await decodeImage(data);
  const { width, height, channels } = img;
  const grey = greyOf(img);
  const n = width * height;
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) hist[grey[i]!]!++;
  const lo = n > 0 ? borderMedian(grey, width, height) : 0;
  let above = 0;
  for (let v = lo + 1; v < 256; v++) above += hist[v]!;
  let hi = 255;
  let seen = 0;
  for (let v = lo + 1; v < 256 && above > 0; v++) {
    seen += hist[v]!;
    if (seen >= 0.995 * above) {
      hi = v;
      break;
    }
  }
  if (hi <= lo) hi = Math.min(255, lo + 1);
  const lut = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
    lut[v] = v > 0 ? (255 * t ** 0.6) / v : 0;
  }
  const colourChannels = channels >= 3 ? 3 : 1;
  const out = Buffer.alloc(n * channels);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const gain = lut[grey[i]!]!;
    for (let c = 0; c < channels; c++) {
      const v = img.data[p + c]!;
      out[p + c] = c < colourChannels ? Math.min(255, Math.round(v * gain)) : v;
    }
  }
  return sharp(out, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } })
    .png()
    .toBuffer();
}
