/** Profiles of the object along its major axis and in rings around its centroid (docs/recognition.md "Features"). */
import type { SmallCrop } from './texture.ts';
import { type FeatureWriter, seq } from './writer.ts';

const PROFILE_BINS = 8;
const RINGS = 8;

/** axisProfiles' values, in its order. */
export const AXIS_PROFILE_NAMES = [...seq('width_profile', PROFILE_BINS), ...seq('intensity_profile', PROFILE_BINS)];
/** radialProfiles' values, in its order. */
export const RADIAL_PROFILE_NAMES = [...seq('radial_fill', RINGS), ...seq('radial_intensity', RINGS)];

/** Both profiles of the size-capped crop, around its centroid (cx, cy) with the major axis at `theta`. */
export function writeProfiles(out: FeatureWriter, small: SmallCrop, cx: number, cy: number, theta: number): void {
  out.setAll(AXIS_PROFILE_NAMES, axisProfiles(small, cx, cy, theta));
  out.setAll(RADIAL_PROFILE_NAMES, radialProfiles(small, cx, cy));
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
