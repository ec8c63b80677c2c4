/** Texture of the object on a size-capped copy of its crop (docs/recognition.md "Features"). */

/** The object's crop, area-averaged so that its longer side is at most `maxSide` pixels. */
export interface SmallCrop {
  w: number;
  h: number;
  grey: Float32Array;
  /** 1 where at least half of the source pixels were object. */
  mask: Uint8Array;
}

/**
 * Area-averages a crop of the grey image and of the object mask. `grey` is the whole image (`width` wide), the crop
 * starts at (x0, y0) and may reach one pixel outside the image (read as 0).
 */
export function smallCrop(
  grey: Uint8Array,
  width: number,
  height: number,
  mask: Uint8Array,
  x0: number,
  y0: number,
  w: number,
  h: number,
  maxSide: number,
): SmallCrop {
  const scale = Math.min(1, maxSide / Math.max(w, h));
  const sw = Math.max(1, Math.round(w * scale));
  const sh = Math.max(1, Math.round(h * scale));
  const sum = new Float32Array(sw * sh);
  const inside = new Float32Array(sw * sh);
  const count = new Float32Array(sw * sh);
  const colOf = new Int32Array(w);
  for (let x = 0; x < w; x++) colOf[x] = Math.min(sw - 1, Math.floor((x * sw) / w));
  for (let y = 0; y < h; y++) {
    const row = Math.min(sh - 1, Math.floor((y * sh) / h)) * sw;
    const iy = y + y0;
    const inImage = iy >= 0 && iy < height;
    for (let x = 0; x < w; x++) {
      const ix = x + x0;
      const d = row + colOf[x]!;
      count[d]!++;
      if (mask[y * w + x]) inside[d]!++;
      if (inImage && ix >= 0 && ix < width) sum[d]! += grey[iy * width + ix]!;
    }
  }
  const out = new Float32Array(sw * sh);
  const small = new Uint8Array(sw * sh);
  for (let i = 0; i < out.length; i++) {
    out[i] = sum[i]! / count[i]!;
    small[i] = inside[i]! * 2 >= count[i]! ? 1 : 0;
  }
  return { w: sw, h: sh, grey: out, mask: small };
}

export const GRADIENT_BINS = 4;

/**
 * Sobel gradient inside the object: mean magnitude and mean |Laplacian| relative to the mean grey level (how sharp
 * the object is), and the magnitude-weighted histogram of gradient orientation relative to the major axis (angle
 * `theta`, radians), folded so that a mirror image gives the same (0 along the axis … π/2 across it), in
 * GRADIENT_BINS bins summing to 1.
 */
export function gradientFeatures(c: SmallCrop, theta: number) {
  const { w, h, grey, mask } = c;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : grey[y * w + x]!);
  const hist = new Float64Array(GRADIENT_BINS);
  let magSum = 0;
  let lapSum = 0;
  let greySum = 0;
  let n = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      const tl = at(x - 1, y - 1);
      const t = at(x, y - 1);
      const tr = at(x + 1, y - 1);
      const l = at(x - 1, y);
      const cc = at(x, y);
      const r = at(x + 1, y);
      const bl = at(x - 1, y + 1);
      const b = at(x, y + 1);
      const br = at(x + 1, y + 1);
      const gx = tr + 2 * r + br - tl - 2 * l - bl;
      const gy = bl + 2 * b + br - tl - 2 * t - tr;
      const mag = Math.hypot(gx, gy) / 8;
      magSum += mag;
      lapSum += Math.abs(t + l + r + b - 4 * cc);
      greySum += cc;
      n++;
      if (mag > 0) {
        let a = Math.atan2(gy, gx) - theta;
        a = ((a % Math.PI) + Math.PI) % Math.PI;
        a = Math.min(a, Math.PI - a);
        hist[Math.min(GRADIENT_BINS - 1, Math.floor((a / (Math.PI / 2)) * GRADIENT_BINS))]! += mag;
      }
    }
  }
  const meanGrey = n ? greySum / n : 0;
  for (let i = 0; i < GRADIENT_BINS; i++) hist[i] = magSum > 0 ? hist[i]! / magSum : 1 / GRADIENT_BINS;
  return {
    gradient: n ? magSum / n / (meanGrey + 1) : 0,
    laplacian: n ? lapSum / n / (meanGrey + 1) : 0,
    orientation: hist,
  };
}

export const LBP_BINS = 10;

/**
 * Rotation-invariant uniform local binary patterns (P = 8 at radius `radius`, riu2): for each object pixel whose
 * neighbours lie in the crop, the number of neighbours at least as bright as it when the pattern is uniform (at most
 * two 0/1 transitions: bins 0-8), else bin 9. Shares summing to 1 (all zero without such pixels).
 */
export function lbp(c: SmallCrop, radius: number, tolerance = 0): Float64Array {
  const { w, h, grey, mask } = c;
  let max = 0;
  for (let i = 0; i < grey.length; i++) if (mask[i] && grey[i]! > max) max = grey[i]!;
  const tol = tolerance * max;
  // The eight neighbours counter-clockwise from the right, as index offsets (the same order as [dx, dy] pairs
  // (1,0) (1,1) (0,1) (-1,1) (-1,0) (-1,-1) (0,-1) (1,-1) scaled by the radius).
  const r = radius;
  const o0 = r;
  const o1 = r * w + r;
  const o2 = r * w;
  const o3 = r * w - r;
  const o4 = -r;
  const o5 = -r * w - r;
  const o6 = -r * w;
  const o7 = -r * w + r;
  const hist = new Float64Array(LBP_BINS);
  let n = 0;
  for (let y = radius; y < h - radius; y++) {
    for (let x = radius; x < w - radius; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      const level = grey[i]! + tol;
      const b0 = grey[i + o0]! >= level ? 1 : 0;
      const b1 = grey[i + o1]! >= level ? 1 : 0;
      const b2 = grey[i + o2]! >= level ? 1 : 0;
      const b3 = grey[i + o3]! >= level ? 1 : 0;
      const b4 = grey[i + o4]! >= level ? 1 : 0;
      const b5 = grey[i + o5]! >= level ? 1 : 0;
      const b6 = grey[i + o6]! >= level ? 1 : 0;
      const b7 = grey[i + o7]! >= level ? 1 : 0;
      const ones = b0 + b1 + b2 + b3 + b4 + b5 + b6 + b7;
      const transitions = (b0 ^ b1) + (b1 ^ b2) + (b2 ^ b3) + (b3 ^ b4) + (b4 ^ b5) + (b5 ^ b6) + (b6 ^ b7) + (b7 ^ b0);
      hist[transitions <= 2 ? ones : 9]!++;
      n++;
    }
  }
  if (n) for (let k = 0; k < LBP_BINS; k++) hist[k] = hist[k]! / n;
  return hist;
}

export const GLCM_LEVELS = 8;
export const GLCM_NAMES = ['contrast', 'homogeneity', 'energy', 'correlation', 'entropy'] as const;

/**
 * Grey-level co-occurrence inside the object: grey quantised to GLCM_LEVELS levels of the object's own range,
 * symmetric pairs at `distance` in the four directions (0°, 45°, 90°, 135°) pooled; Haralick's contrast,
 * homogeneity, energy (angular second moment), correlation and entropy.
 */
export function glcm(c: SmallCrop, distance: number): number[] {
  const { w, h, grey, mask } = c;
  let max = 0;
  for (let i = 0; i < grey.length; i++) if (mask[i] && grey[i]! > max) max = grey[i]!;
  const L = GLCM_LEVELS;
  const q = new Uint8Array(w * h);
  for (let i = 0; i < q.length; i++) q[i] = max > 0 ? Math.min(L - 1, Math.floor((grey[i]! / max) * L)) : 0;
  const m = new Float64Array(L * L);
  let total = 0;
  // Pairs at (d, 0), (d, d), (0, d) and (−d, d), each counted both ways.
  const d = distance;
  const pair = (i: number, j: number) => {
    if (!mask[j]) return;
    m[q[i]! * L + q[j]!]!++;
    m[q[j]! * L + q[i]!]!++;
    total += 2;
  };
  for (let y = 0; y < h; y++) {
    const down = y + d < h;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!mask[i]) continue;
      if (x + d < w) pair(i, i + d);
      if (down) {
        if (x + d < w) pair(i, i + d * w + d);
        pair(i, i + d * w);
        if (x - d >= 0) pair(i, i + d * w - d);
      }
    }
  }
  if (total === 0) return [0, 1, 1, 0, 0];
  let contrast = 0;
  let homogeneity = 0;
  let energy = 0;
  let entropy = 0;
  let mean = 0;
  for (let a = 0; a < L; a++) {
    for (let b = 0; b < L; b++) {
      const p = m[a * L + b]! / total;
      if (p === 0) continue;
      contrast += (a - b) * (a - b) * p;
      homogeneity += p / (1 + (a - b) * (a - b));
      energy += p * p;
      entropy -= p * Math.log2(p);
      mean += a * p;
    }
  }
  let variance = 0;
  let covariance = 0;
  for (let a = 0; a < L; a++) {
    for (let b = 0; b < L; b++) {
      const p = m[a * L + b]! / total;
      variance += (a - mean) * (a - mean) * p;
      covariance += (a - mean) * (b - mean) * p;
    }
  }
  const correlation = variance > 1e-12 ? covariance / variance : 1;
  return [contrast, homogeneity, energy, correlation, entropy];
}
