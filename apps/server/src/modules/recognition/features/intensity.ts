/**
 * Grey level and colour inside the object (docs/recognition.md "Features"): one pass over the working crop gathers
 * the statistics (and marks the bright core), the writers turn them into the vector's sections.
 */
import type { Crop } from './crop.ts';
import { THIN_PX, type Shape } from './geometry.ts';
import { otsuOfHistogram } from './segment.ts';
import { type FeatureWriter, seq } from './writer.ts';

const INTENSITY_BINS = 8;
const HUE_BINS = 6;

export const INTENSITY_HIST_NAMES = seq('intensity_hist', INTENSITY_BINS);
export const HUE_NAMES = seq('hue', HUE_BINS);
const PERCENTILES = [
  ['intensity_p10', 0.1],
  ['intensity_p25', 0.25],
  ['intensity_p50', 0.5],
  ['intensity_p75', 0.75],
  ['intensity_p90', 0.9],
] as const;

/** Sums over the object's pixels of the working crop. */
export interface ObjectStats {
  /** Object pixels of the working crop. */
  area: number;
  /** Grey-level histogram of the object. */
  hist: Uint32Array;
  /** Grey level: sum, sums weighted by x and y, mean, and the sums of its 2nd-4th powers about the mean. */
  gSum: number;
  gxSum: number;
  gySum: number;
  meanGrey: number;
  g2: number;
  g3: number;
  g4: number;
  /** Grey level of the pixels within THIN_PX of the edge (working pixels scaled), and their number. */
  edgeGrey: number;
  edgeN: number;
  /** Colour: channel sums, red-green and yellow-blue opponents and saturation (sums and sums of squares). */
  sumR: number;
  sumG: number;
  sumB: number;
  rgSum: number;
  rg2: number;
  ybSum: number;
  yb2: number;
  satSum: number;
  sat2: number;
  /** Opponents of the brightest (≥ p75) and dimmest (≤ p25) quarter. */
  brightN: number;
  brightRg: number;
  brightYb: number;
  dimN: number;
  dimRg: number;
  dimYb: number;
  /** Chroma-weighted hue histogram and its total. */
  hue: Float64Array;
  hueTotal: number;
  /** 1 where the object is at least Otsu's cut of its own grey levels (the bright core). */
  core: Uint8Array;
}

/** The grey level at which `p` of the object's pixels are at or below. */
export function percentileOf(hist: Uint32Array, area: number, p: number): number {
  const target = p * area;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v]!;
    if (seen >= target) return v;
  }
  return 255;
}

/** The object's statistics; `cut` is the segmentation's (a uniform object is all core). */
export function objectStats(crop: Crop, shape: Shape, cut: number): ObjectStats {
  const { mask, w, h, grey, r, g, b, scale } = crop;
  const { area, dt } = shape;
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
  const p25 = percentileOf(hist, area, 0.25);
  const p75 = percentileOf(hist, area, 0.75);
  const otsu = otsuOfHistogram(hist);
  // A uniform object is all core.
  const coreCut = otsu > 255 ? 0 : Math.max(cut, otsu);

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
  return {
    area,
    hist,
    gSum,
    gxSum,
    gySum,
    meanGrey,
    g2,
    g3,
    g4,
    edgeGrey,
    edgeN,
    sumR,
    sumG,
    sumB,
    rgSum,
    rg2,
    ybSum,
    yb2,
    satSum,
    sat2,
    brightN,
    brightRg,
    brightYb,
    dimN,
    dimRg,
    dimYb,
    hue,
    hueTotal,
    core,
  };
}

const ln1p = (v: number) => Math.log1p(Math.max(0, v));

/** Grey level inside the object; `scale` is the working crop's, `shape` the object's. */
export function writeIntensity(out: FeatureWriter, s: ObjectStats, shape: Shape, scale: number): void {
  const { area, hist, gSum, meanGrey, edgeGrey, edgeN } = s;
  const coreN = area - edgeN;
  const edgeCore = edgeN > 0 && coreN > 0 ? edgeGrey / edgeN / ((gSum - edgeGrey) / coreN + 1) : 1;
  const sd = Math.sqrt(s.g2 / area);
  out.set('intensity_mean', meanGrey);
  out.set('intensity_std', sd);
  out.set('intensity_skew', sd > 1e-9 ? s.g3 / area / sd ** 3 : 0);
  out.set('intensity_kurtosis', sd > 1e-9 ? s.g4 / area / sd ** 4 - 3 : 0);
  for (const [name, p] of PERCENTILES) out.set(name, percentileOf(hist, area, p));
  out.set('intensity_max', percentileOf(hist, area, 1));
  out.set('intensity_sum_log', ln1p(gSum / (scale * scale)));
  out.set('intensity_cv', sd / (meanGrey + 1));
  out.set('intensity_edge_core', edgeCore);
  out.set(
    'intensity_centroid_offset',
    gSum > 0 ? Math.hypot(s.gxSum / gSum - shape.cx, s.gySum / gSum - shape.cy) / (shape.eqDiameter / 2) : 0,
  );
  for (let bin = 0; bin < INTENSITY_BINS; bin++) {
    let c = 0;
    for (let v = bin * (256 / INTENSITY_BINS); v < (bin + 1) * (256 / INTENSITY_BINS); v++) c += hist[v]!;
    out.set(INTENSITY_HIST_NAMES[bin]!, c / area);
  }
}

/** Colour inside the object. */
export function writeColour(out: FeatureWriter, s: ObjectStats): void {
  const { area, sumR, sumG, sumB, rgSum, ybSum, satSum, brightN, dimN, hue, hueTotal } = s;
  const rgb = sumR + sumG + sumB;
  out.set('chroma_r', rgb > 0 ? sumR / rgb : 1 / 3);
  out.set('chroma_g', rgb > 0 ? sumG / rgb : 1 / 3);
  out.set('chroma_b', rgb > 0 ? sumB / rgb : 1 / 3);
  out.set('opponent_rg_mean', rgSum / area);
  out.set('opponent_rg_std', Math.sqrt(Math.max(0, s.rg2 / area - (rgSum / area) ** 2)));
  out.set('opponent_yb_mean', ybSum / area);
  out.set('opponent_yb_std', Math.sqrt(Math.max(0, s.yb2 / area - (ybSum / area) ** 2)));
  out.set('saturation_mean', satSum / area);
  out.set('saturation_std', Math.sqrt(Math.max(0, s.sat2 / area - (satSum / area) ** 2)));
  out.set('bright_rg', brightN ? s.brightRg / brightN : 0);
  out.set('bright_yb', brightN ? s.brightYb / brightN : 0);
  out.set('dim_rg', dimN ? s.dimRg / dimN : 0);
  out.set('dim_yb', dimN ? s.dimYb / dimN : 0);
  for (let j = 0; j < HUE_BINS; j++) out.set(HUE_NAMES[j]!, hueTotal > 0 ? hue[j]! / hueTotal : 0);
}
