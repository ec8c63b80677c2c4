/** Internal structure of the object on its size-capped crop (docs/recognition.md "Features"). */
import { countComponents } from './segment.ts';
import type { SmallCrop } from './texture.ts';

/** Grey levels, as shares of the object's brightest, at which the object is cut into layers. */
export const LEVELS = [0.1, 0.2, 0.35, 0.5, 0.7] as const;

/**
 * For each of LEVELS: the share of the object at least that bright, and ln(1 + the number of separate bright
 * parts of at least 2 pixels) there.
 */
export function levelStats(c: SmallCrop): number[] {
  let max = 0;
  let n = 0;
  for (let i = 0; i < c.grey.length; i++) {
    if (!c.mask[i]) continue;
    n++;
    if (c.grey[i]! > max) max = c.grey[i]!;
  }
  const out: number[] = [];
  const bin = new Uint8Array(c.grey.length);
  for (const level of LEVELS) {
    let above = 0;
    for (let i = 0; i < bin.length; i++) {
      bin[i] = c.mask[i] && c.grey[i]! >= level * max ? 1 : 0;
      above += bin[i]!;
    }
    out.push(n ? above / n : 0, Math.log1p(countComponents(bin, c.w, c.h, 2)));
  }
  return out;
}

/**
 * Symmetry of the object about its centroid: under a half turn, a mirror across the major axis and one across the
 * minor axis, the share of object pixels that land on object, and 1 − Σ|grey − grey'| / Σ(grey + grey').
 */
export function symmetry(c: SmallCrop, cx: number, cy: number, theta: number): number[] {
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  // The half turn (−u, −v), the mirror across the major axis (u, −v) and the one across the minor axis (−u, v).
  const maps = [
    [true, true],
    [false, true],
    [true, false],
  ] as const;
  const out: number[] = [];
  for (const [flipU, flipV] of maps) {
    let n = 0;
    let hit = 0;
    let diff = 0;
    let sum = 0;
    for (let y = 0; y < c.h; y++) {
      for (let x = 0; x < c.w; x++) {
        const i = y * c.w + x;
        if (!c.mask[i]) continue;
        const u = (x - cx) * cos + (y - cy) * sin;
        const v = -(x - cx) * sin + (y - cy) * cos;
        const u2 = flipU ? -u : u;
        const v2 = flipV ? -v : v;
        const x2 = Math.round(cx + u2 * cos - v2 * sin);
        const y2 = Math.round(cy + u2 * sin + v2 * cos);
        const inside = x2 >= 0 && y2 >= 0 && x2 < c.w && y2 < c.h;
        const j = y2 * c.w + x2;
        const g2 = inside && c.mask[j] ? c.grey[j]! : 0;
        n++;
        if (inside && c.mask[j]) hit++;
        diff += Math.abs(c.grey[i]! - g2);
        sum += c.grey[i]! + g2;
      }
    }
    out.push(n ? hit / n : 0, sum > 0 ? 1 - diff / sum : 0);
  }
  return out;
}

/**
 * Zhang-Suen skeleton of the object: its length relative to the object's major axis, its end points and branch
 * points (ln(1 + count)), and the share of end points among them.
 */
export function skeletonStats(c: SmallCrop, major: number): number[] {
  // Zhang-Suen on a copy with a background ring, so that neighbours never leave the image.
  const w = c.w + 2;
  const h = c.h + 2;
  const s = new Uint8Array(w * h);
  let live: number[] = [];
  for (let y = 0; y < c.h; y++) {
    for (let x = 0; x < c.w; x++) {
      if (!c.mask[y * c.w + x]) continue;
      const i = (y + 1) * w + x + 1;
      s[i] = 1;
      live.push(i);
    }
  }
  const marked: number[] = [];
  for (let changed = true; changed;) {
    changed = false;
    for (let pass = 0; pass < 2; pass++) {
      marked.length = 0;
      for (const i of live) {
        const p2 = s[i - w]!;
        const p3 = s[i - w + 1]!;
        const p4 = s[i + 1]!;
        const p5 = s[i + w + 1]!;
        const p6 = s[i + w]!;
        const p7 = s[i + w - 1]!;
        const p8 = s[i - 1]!;
        const p9 = s[i - w - 1]!;
        const b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
        if (b < 2 || b > 6) continue;
        const a =
          (p2 < p3 ? 1 : 0) +
          (p3 < p4 ? 1 : 0) +
          (p4 < p5 ? 1 : 0) +
          (p5 < p6 ? 1 : 0) +
          (p6 < p7 ? 1 : 0) +
          (p7 < p8 ? 1 : 0) +
          (p8 < p9 ? 1 : 0) +
          (p9 < p2 ? 1 : 0);
        if (a !== 1) continue;
        if (pass === 0 ? p2 * p4 * p6 === 0 && p4 * p6 * p8 === 0 : p2 * p4 * p8 === 0 && p2 * p6 * p8 === 0) marked.push(i);
      }
      for (const i of marked) s[i] = 0;
      if (marked.length) {
        changed = true;
        live = live.filter((i) => s[i] === 1);
      }
    }
  }
  let ends = 0;
  let branches = 0;
  for (const i of live) {
    const nb = s[i - w - 1]! + s[i - w]! + s[i - w + 1]! + s[i - 1]! + s[i + 1]! + s[i + w - 1]! + s[i + w]! + s[i + w + 1]!;
    if (nb === 1) ends++;
    else if (nb >= 3) branches++;
  }
  const length = live.length;
  return [
    major > 0 ? length / major : 0,
    Math.log1p(ends),
    Math.log1p(branches),
    ends + branches > 0 ? ends / (ends + branches) : 0,
  ];
}

/** Approximate Gaussian blur of standard deviation `sigma`: three box blurs (zero outside the image). */
function blur(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  const a = Float32Array.from(src);
  const b = new Float32Array(w * h);
  for (let pass = 0; pass < 3; pass++) {
    boxRows(a, b, w, h, r);
    boxColumns(b, a, w, h, r);
  }
  return a;
}

function boxRows(src: Float32Array, dst: Float32Array, w: number, h: number, r: number) {
  const norm = 1 / (2 * r + 1);
  for (let y = 0; y < h; y++) {
    const base = y * w;
    let sum = 0;
    for (let x = 0; x < Math.min(r, w); x++) sum += src[base + x]!;
    for (let x = 0; x < w; x++) {
      if (x + r < w) sum += src[base + x + r]!;
      dst[base + x] = sum * norm;
      if (x - r >= 0) sum -= src[base + x - r]!;
    }
  }
}

function boxColumns(src: Float32Array, dst: Float32Array, w: number, h: number, r: number) {
  // Row by row with one running sum per column: each column's sum takes the same steps as a column-by-column walk,
  // reading memory in order.
  const norm = 1 / (2 * r + 1);
  const sum = new Float64Array(w);
  for (let y = 0; y < Math.min(r, h); y++) for (let x = 0; x < w; x++) sum[x]! += src[y * w + x]!;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const ahead = y + r < h ? (y + r) * w : -1;
    const behind = y - r >= 0 ? (y - r) * w : -1;
    for (let x = 0; x < w; x++) {
      if (ahead >= 0) sum[x]! += src[ahead + x]!;
      dst[row + x] = sum[x]! * norm;
      if (behind >= 0) sum[x]! -= src[behind + x]!;
    }
  }
}

/**
 * Band-pass energy inside the object (differences of Gaussian blurs at σ = 0, 1, 2, 4 crop pixels), each relative
 * to the mean grey level, and the coherence of the structure tensor (0 isotropic … 1 all edges parallel).
 */
export function bandEnergies(c: SmallCrop): number[] {
  const { w, h, grey, mask } = c;
  const g1 = blur(grey, w, h, 1);
  const g2 = blur(grey, w, h, 2);
  const g4 = blur(grey, w, h, 4);
  let e0 = 0;
  let e1 = 0;
  let e2 = 0;
  let mean = 0;
  let n = 0;
  const jxx = new Float32Array(w * h);
  const jyy = new Float32Array(w * h);
  const jxy = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const gx = (x + 1 < w ? g1[i + 1]! : 0) - (x > 0 ? g1[i - 1]! : 0);
      const gy = (y + 1 < h ? g1[i + w]! : 0) - (y > 0 ? g1[i - w]! : 0);
      jxx[i] = gx * gx;
      jyy[i] = gy * gy;
      jxy[i] = gx * gy;
      if (!mask[i]) continue;
      e0 += Math.abs(grey[i]! - g1[i]!);
      e1 += Math.abs(g1[i]! - g2[i]!);
      e2 += Math.abs(g2[i]! - g4[i]!);
      mean += grey[i]!;
      n++;
    }
  }
  const sxx = blur(jxx, w, h, 2);
  const syy = blur(jyy, w, h, 2);
  const sxy = blur(jxy, w, h, 2);
  let coherent = 0;
  let trace = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const t = sxx[i]! + syy[i]!;
    const d = Math.sqrt((sxx[i]! - syy[i]!) ** 2 + 4 * sxy[i]! ** 2);
    coherent += d;
    trace += t;
  }
  const m = n ? mean / n + 1 : 1;
  return n ? [e0 / n / m, e1 / n / m, e2 / n / m, trace > 0 ? coherent / trace : 0] : [0, 0, 0, 0];
}
