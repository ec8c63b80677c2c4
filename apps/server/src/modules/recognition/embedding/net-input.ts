import { greyOf, type RawImage } from '../features.ts';
import { borderMedian } from '../features/segment.ts';

/**
 * What the backbone network sees of an ROI (docs/recognition.md, "Backbone"): the image's grey level above its
 * background, stretched so that its 99.5th percentile is 255 (dark-field gain varies between instruments), fitted
 * with its aspect kept into the middle 90% of a SIDE × SIDE square (room for rotations) by an antialiased bilinear
 * resize, and the original size beside it (the resize throws size away; size tells a copepod from a nauplius).
 * Pure arithmetic, so the training data prepared by `npm run train:backbone` and the server's input are identical.
 */
export const NET_SIDE = 64;
const FILL = 0.9;

export interface NetInput {
  /** SIDE × SIDE grey levels 0-255, row-major. */
  pixels: Uint8Array;
  /** ln(long side px), ln(short side px) of the original image. */
  size: [number, number];
}

/** `grey` is greyOf(img) where the caller has it already. */
export function netInputOf(img: RawImage, side = NET_SIDE, grey?: Uint8Array): NetInput {
  const { width, height } = img;
  const pixels = new Uint8Array(side * side);
  const size: [number, number] = [Math.log(Math.max(1, width, height)), Math.log(Math.max(1, Math.min(width, height)))];
  const n = width * height;
  if (n === 0) return { pixels, size };
  grey ??= greyOf(img);
  const bg = borderMedian(grey, width, height);
  const above = new Float32Array(n);
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) {
    const v = grey[i]! - bg;
    if (v > 0) {
      above[i] = v;
      hist[v]!++;
    }
  }
  let count = 0;
  for (let v = 1; v < 256; v++) count += hist[v]!;
  if (count === 0) return { pixels, size };
  // 99.5th percentile of the pixels above the background.
  const rank = Math.ceil(count * 0.995);
  let hi = 1;
  for (let v = 1, seen = 0; v < 256; v++) {
    seen += hist[v]!;
    if (seen >= rank) {
      hi = v;
      break;
    }
  }
  const scale = (side * FILL) / Math.max(width, height);
  const ow = Math.max(1, Math.min(side, Math.round(width * scale)));
  const oh = Math.max(1, Math.min(side, Math.round(height * scale)));
  const resized = resize(above, width, height, ow, oh);
  const x0 = (side - ow) >> 1;
  const y0 = (side - oh) >> 1;
  const k = 255 / hi;
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      const v = Math.round(resized[y * ow + x]! * k);
      pixels[(y0 + y) * side + x0 + x] = v > 255 ? 255 : v < 0 ? 0 : v;
    }
  }
  return { pixels, size };
}

/** Separable antialiased bilinear resampling (a triangle filter widened to the scale when shrinking). */
function resize(src: Float32Array, w: number, h: number, ow: number, oh: number): Float32Array {
  const wx = weights(w, ow);
  const wy = weights(h, oh);
  const tmp = new Float32Array(ow * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < ow; x++) {
      const at = row + wx.start[x]!;
      const from = wx.from[x]!;
      const taps = wx.from[x + 1]! - from;
      let s = 0;
      for (let j = 0; j < taps; j++) s += src[at + j]! * wx.w[from + j]!;
      tmp[y * ow + x] = s;
    }
  }
  const out = new Float32Array(ow * oh);
  for (let y = 0; y < oh; y++) {
    const start = wy.start[y]!;
    const from = wy.from[y]!;
    const taps = wy.from[y + 1]! - from;
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let j = 0; j < taps; j++) s += tmp[(start + j) * ow + x]! * wy.w[from + j]!;
      out[y * ow + x] = s;
    }
  }
  return out;
}

/**
 * Each output pixel's taps: output i reads the inputs from start[i] on, with the weights w[from[i] … from[i + 1]).
 */
function weights(n: number, on: number): { start: Int32Array; from: Int32Array; w: Float64Array } {
  const scale = n / on;
  const support = Math.max(1, scale);
  const start = new Int32Array(on);
  const from = new Int32Array(on + 1);
  const rows: Float64Array[] = [];
  for (let i = 0; i < on; i++) {
    const centre = (i + 0.5) * scale;
    const first = Math.max(0, Math.floor(centre - support));
    const end = Math.min(n, Math.ceil(centre + support));
    const w = new Float64Array(Math.max(1, end - first));
    let total = 0;
    for (let j = first; j < end; j++) {
      const t = 1 - Math.abs((j + 0.5 - centre) / support);
      const v = t > 0 ? t : 0;
      w[j - first] = v;
      total += v;
    }
    if (total > 0) for (let j = 0; j < w.length; j++) w[j]! /= total;
    else w[0] = 1;
    start[i] = Math.min(first, n - 1);
    from[i + 1] = from[i]! + w.length;
    rows.push(w);
  }
  const w = new Float64Array(from[on]!);
  rows.forEach((row, i) => w.set(row, from[i]!));
  return { start, from, w };
}

/**
 * The eight turns and mirrors of a square input (the dihedral group): plankton have no up or down, so the server
 * embeds all eight and averages them (test-time augmentation). Index 0 is the input itself.
 */
export function dihedral(pixels: Uint8Array, side: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let t = 0; t < 8; t++) {
    const o = new Uint8Array(side * side);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        // t bit 0: mirror x; bit 1: mirror y; bit 2: transpose.
        let sx = t & 1 ? side - 1 - x : x;
        let sy = t & 2 ? side - 1 - y : y;
        if (t & 4) [sx, sy] = [sy, sx];
        o[y * side + x] = pixels[sy * side + sx]!;
      }
    }
    out.push(o);
  }
  return out;
}
