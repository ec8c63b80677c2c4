/** The object's crop at working resolution (docs/recognition.md "Features"). */
import type { RawImage } from './image.ts';
import { largestComponent, type Segment } from './segment.ts';

/** Objects longer than this (px) are measured on an area-averaged copy this long; measures are scaled back. */
const WORK_SIDE = 400;

/** The object's crop at working resolution: its mask (outer ring background) and its grey and colour planes. */
export interface Crop {
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
export function workingCrop(seg: Segment, img: RawImage, grey: Uint8Array): Crop {
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
    // Row by row: the mask and grey rows are copied whole; colour is split out of the interleaved pixels.
    for (let y = 1; y < h - 1; y++) {
      const row = y * w;
      const src = (y + y0) * width + x0;
      crop.mask.set(seg.mask.subarray(row + 1, row + w - 1), row + 1);
      crop.grey.set(grey.subarray(src + 1, src + w - 1), row + 1);
      if (!colour) continue;
      for (let x = 1; x < w - 1; x++) {
        const i = row + x;
        const q = (src + x) * channels;
        if (alpha) {
          const a = data[q + 3]! / 255;
          crop.r[i] = Math.round(data[q]! * a);
          crop.g[i] = Math.round(data[q + 1]! * a);
          crop.b[i] = Math.round(data[q + 2]! * a);
        } else {
          crop.r[i] = data[q]!;
          crop.g[i] = data[q + 1]!;
          crop.b[i] = data[q + 2]!;
        }
      }
    }
    if (!colour) {
      crop.r.set(crop.grey);
      crop.g.set(crop.grey);
      crop.b.set(crop.grey);
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
      count[d]!++;
      inside[d]! += seg.mask[msk + x]!;
    }
    // One loop per layout (× 1 where there is no alpha is exact, so it is left out).
    if (alpha) {
      for (let x = 0, q = src * channels; x < bw; x++, q += channels) {
        const d = row + colOf[x]!;
        const a = data[q + 3]! / 255;
        sumR[d]! += data[q]! * a;
        sumG[d]! += data[q + 1]! * a;
        sumB[d]! += data[q + 2]! * a;
      }
    } else if (colour) {
      for (let x = 0, q = src * channels; x < bw; x++, q += channels) {
        const d = row + colOf[x]!;
        sumR[d]! += data[q]!;
        sumG[d]! += data[q + 1]!;
        sumB[d]! += data[q + 2]!;
      }
    } else {
      for (let x = 0; x < bw; x++) sumR[row + colOf[x]!]! += grey[src + x]!;
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
