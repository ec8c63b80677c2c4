/**
 * Segmentation of a dark-field image (bright organism on a dark background) into one object: the largest
 * 8-connected component of the thresholded grey image, holes filled (docs/recognition.md "Features").
 */

/** The object, cropped to its bounding box plus one background pixel on every side. */
export interface Segment {
  /** 1 inside the object (holes filled), 0 outside; `w * h`, row-major. */
  mask: Uint8Array;
  /** Crop origin in the image (may be -1: the pad lies outside the image). */
  x0: number;
  y0: number;
  w: number;
  h: number;
  /** Pixels of the object with holes filled, and before filling. */
  area: number;
  rawArea: number;
  /** Components of at least 5% of the largest's area (the largest included). */
  components: number;
  /** Share of all above-threshold pixels that belong to the largest component. */
  largestShare: number;
  /** Grey level of the background (median of the frame's edge pixels) and the cut used (object: grey >= cut). */
  background: number;
  cut: number;
  /** 1 when the configured threshold gave a degenerate mask and Otsu's threshold was used instead. */
  fallback: number;
  /** 1 when the object touches the image's edge. */
  touchesEdge: number;
}

/** Above this share of the frame's edge pixels over the cut, the cut is inside the background's noise. */
const NOISY_EDGE_SHARE = 0.25;

/** Median grey level of the frame's edge pixels (histogram; the frame of a 1×1 image is its pixel). */
export function borderMedian(grey: Uint8Array, width: number, height: number): number {
  const hist = new Uint32Array(256);
  let n = 0;
  const add = (i: number) => {
    hist[grey[i]!]!++;
    n++;
  };
  for (let x = 0; x < width; x++) {
    add(x);
    if (height > 1) add((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    add(y * width);
    if (width > 1) add(y * width + width - 1);
  }
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v]!;
    if (seen * 2 >= n) return v;
  }
  return 0;
}

/** Otsu's threshold of the whole image: the cut (object: grey >= cut) maximising between-class variance. */
export function otsuCut(grey: Uint8Array): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < grey.length; i++) hist[grey[i]!]!++;
  return otsuOfHistogram(hist);
}

/** Otsu's cut of a 256-bin histogram (256 when it holds a single level). */
export function otsuOfHistogram(hist: ArrayLike<number>): number {
  let total = 0;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) {
    total += hist[v]!;
    sumAll += v * hist[v]!;
  }
  let w0 = 0;
  let sum0 = 0;
  let best = -1;
  let cut = 256;
  for (let v = 0; v < 255; v++) {
    w0 += hist[v]!;
    sum0 += v * hist[v]!;
    const w1 = total - w0;
    if (w0 === 0 || w1 === 0) continue;
    const d = sum0 / w0 - (sumAll - sum0) / w1;
    const between = w0 * w1 * d * d;
    if (between > best) {
      best = between;
      cut = v + 1;
    }
  }
  return cut;
}

function edgeShareAbove(grey: Uint8Array, width: number, height: number, cut: number): number {
  let n = 0;
  let above = 0;
  const visit = (i: number) => {
    n++;
    if (grey[i]! >= cut) above++;
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    if (height > 1) visit((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    visit(y * width);
    if (width > 1) visit(y * width + width - 1);
  }
  return n === 0 ? 0 : above / n;
}

/**
 * The object of a grey image. `threshold` is the instrument's binarization threshold: grey levels at least this
 * far above the background count as object. When that mask is degenerate (empty while the image is not flat, or
 * over more than a quarter of the frame's edge: the threshold sits in the noise) Otsu's threshold is used.
 * Returns null when nothing stands above the background (an all-black or flat image).
 */
export function segment(grey: Uint8Array, width: number, height: number, threshold: number): Segment | null {
  const n = width * height;
  if (n === 0) return null;
  const background = borderMedian(grey, width, height);
  let max = 0;
  for (let i = 0; i < n; i++) if (grey[i]! > max) max = grey[i]!;
  if (max <= background) return null;
  let cut = Math.min(255, background + Math.max(1, Math.round(threshold)));
  let fallback = 0;
  if (max < cut || edgeShareAbove(grey, width, height, cut) > NOISY_EDGE_SHARE) {
    cut = Math.max(background + 1, otsuCut(grey));
    fallback = 1;
    if (max < cut) return null;
  }

  const runs = runsOf(grey, width, height, cut, false);
  const comps = label(runs, true);
  let best = -1;
  for (let c = 0; c < comps.count; c++) if (best < 0 || comps.size[c]! > comps.size[best]!) best = c;
  const bestSize = comps.size[best]!;
  const minX = comps.minX[best]!;
  const maxX = comps.maxX[best]!;
  const minY = comps.minY[best]!;
  const maxY = comps.maxY[best]!;
  const x0 = minX - 1;
  const y0 = minY - 1;
  const w = maxX - minX + 3;
  const h = maxY - minY + 3;
  const mask = new Uint8Array(w * h);
  for (let k = 0; k < runs.n; k++) {
    if (comps.of[k] !== best) continue;
    const row = (runs.row[k]! - y0) * w - x0;
    mask.fill(1, row + runs.start[k]!, row + runs.end[k]!);
  }
  const area = fillHoles(mask, w, h);
  let components = 0;
  let total = 0;
  for (let c = 0; c < comps.count; c++) {
    total += comps.size[c]!;
    if (comps.size[c]! >= bestSize * 0.05) components++;
  }
  const touchesEdge = minX === 0 || minY === 0 || maxX === width - 1 || maxY === height - 1 ? 1 : 0;
  return {
    mask,
    x0,
    y0,
    w,
    h,
    area,
    rawArea: bestSize,
    components,
    largestShare: bestSize / total,
    background,
    cut,
    fallback,
    touchesEdge,
  };
}

/** Horizontal runs of foreground pixels, row by row: [start, end) in each row. */
interface Runs {
  row: Int32Array;
  start: Int32Array;
  end: Int32Array;
  n: number;
  width: number;
  height: number;
}

/** Runs of pixels >= cut (or, with `invert`, < cut). */
function runsOf(data: Uint8Array, width: number, height: number, cut: number, invert: boolean): Runs {
  let cap = 256;
  let row = new Int32Array(cap);
  let start = new Int32Array(cap);
  let end = new Int32Array(cap);
  let n = 0;
  for (let y = 0; y < height; y++) {
    const base = y * width;
    let x = 0;
    while (x < width) {
      while (x < width && data[base + x]! >= cut === invert) x++;
      if (x === width) break;
      const s = x;
      while (x < width && data[base + x]! >= cut !== invert) x++;
      if (n === cap) {
        cap *= 2;
        const grow = (a: Int32Array) => {
          const b = new Int32Array(cap);
          b.set(a);
          return b;
        };
        row = grow(row);
        start = grow(start);
        end = grow(end);
      }
      row[n] = y;
      start[n] = s;
      end[n] = x;
      n++;
    }
  }
  return { row, start, end, n, width, height };
}

/** Connected components of runs (8- or 4-connectivity): per run its component, per component size and box. */
function label(runs: Runs, eight: boolean) {
  const { row, start, end, n } = runs;
  const parent = new Int32Array(n);
  for (let k = 0; k < n; k++) parent[k] = k;
  const find = (k: number) => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k]!]!;
      k = parent[k]!;
    }
    return k;
  };
  const reach = eight ? 1 : 0;
  // Runs of the previous row: [prevLo, prevHi).
  let prevLo = 0;
  let prevHi = 0;
  let k = 0;
  while (k < n) {
    const y = row[k]!;
    let rowEnd = k;
    while (rowEnd < n && row[rowEnd] === y) rowEnd++;
    if (prevHi > prevLo && row[prevLo] === y - 1) {
      let q = prevLo;
      for (let r = k; r < rowEnd; r++) {
        while (q < prevHi && end[q]! + reach <= start[r]!) q++;
        for (let j = q; j < prevHi && start[j]! < end[r]! + reach; j++) {
          const a = find(r);
          const b = find(j);
          if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
        }
      }
    }
    prevLo = k;
    prevHi = rowEnd;
    k = rowEnd;
  }
  const of = new Int32Array(n);
  const index = new Int32Array(n).fill(-1);
  let count = 0;
  for (let r = 0; r < n; r++) {
    const root = find(r);
    if (index[root]! < 0) index[root] = count++;
    of[r] = index[root]!;
  }
  const size = new Float64Array(count);
  const minX = new Int32Array(count).fill(2 ** 30);
  const maxX = new Int32Array(count).fill(-1);
  const minY = new Int32Array(count).fill(2 ** 30);
  const maxY = new Int32Array(count).fill(-1);
  for (let r = 0; r < n; r++) {
    const c = of[r]!;
    size[c]! += end[r]! - start[r]!;
    if (start[r]! < minX[c]!) minX[c] = start[r]!;
    if (end[r]! - 1 > maxX[c]!) maxX[c] = end[r]! - 1;
    if (row[r]! < minY[c]!) minY[c] = row[r]!;
    if (row[r]! > maxY[c]!) maxY[c] = row[r]!;
  }
  return { of, count, size, minX, maxX, minY, maxY };
}

/**
 * Fills the holes of a mask whose outer ring is background: background reached from the ring through
 * 4-connected background (the dual of 8-connected objects) stays, the rest becomes object. Returns the area.
 */
export function fillHoles(mask: Uint8Array, w: number, h: number): number {
  const runs = runsOf(mask, w, h, 1, true);
  const comps = label(runs, false);
  // The component of the first run (the top row, all background) is the outside.
  const outside = runs.n > 0 ? comps.of[0]! : -1;
  let background = 0;
  for (let k = 0; k < runs.n; k++) {
    if (comps.of[k] === outside) {
      background += runs.end[k]! - runs.start[k]!;
      continue;
    }
    const at = runs.row[k]! * w;
    mask.fill(1, at + runs.start[k]!, at + runs.end[k]!);
  }
  return w * h - background;
}

/**
 * The largest 8-connected component of a binary crop whose outer ring is background, holes filled, with the number
 * of components of at least 5% of its area.
 */
export function largestComponent(bin: Uint8Array, w: number, h: number) {
  const mask = new Uint8Array(w * h);
  const runs = runsOf(bin, w, h, 1, false);
  if (runs.n === 0) return { mask, area: 0, rawArea: 0, components: 0 };
  const comps = label(runs, true);
  let best = 0;
  for (let c = 1; c < comps.count; c++) if (comps.size[c]! > comps.size[best]!) best = c;
  for (let k = 0; k < runs.n; k++) {
    if (comps.of[k] !== best) continue;
    const at = runs.row[k]! * w;
    mask.fill(1, at + runs.start[k]!, at + runs.end[k]!);
  }
  let components = 0;
  for (let c = 0; c < comps.count; c++) if (comps.size[c]! >= comps.size[best]! * 0.05) components++;
  const area = fillHoles(mask, w, h);
  return { mask, area, rawArea: comps.size[best]!, components };
}

/** Number of 8-connected components of at least `minSize` pixels in a binary image. */
export function countComponents(bin: Uint8Array, w: number, h: number, minSize: number): number {
  const runs = runsOf(bin, w, h, 1, false);
  if (runs.n === 0) return 0;
  const comps = label(runs, true);
  let count = 0;
  for (let c = 0; c < comps.count; c++) if (comps.size[c]! >= minSize) count++;
  return count;
}
