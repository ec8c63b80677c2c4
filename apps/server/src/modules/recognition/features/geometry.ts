/** Geometry of a binary object: contour, convex hull, calipers, distance transform (docs/recognition.md "Features"). */

/** Moore-neighbour offsets, clockwise on screen (y down) from west; even = axial step, odd = diagonal. */
const DX = [-1, -1, 0, 1, 1, 1, 0, -1] as const;
const DY = [0, -1, -1, -1, 0, 1, 1, 1] as const;
/** Direction index of the unit step (dx, dy), at (dy + 1) * 3 + (dx + 1). */
const DIR_OF = [1, 2, 3, 0, -1, 4, 7, 6, 5] as const;

export interface Contour {
  /** Boundary pixels in order (pixel centres, crop coordinates), the start not repeated. */
  xs: Int32Array;
  ys: Int32Array;
  n: number;
  /** Perimeter by Vossepoel & Smeulders (1982): 0.980 per axial step, 1.406 per diagonal, −0.091 per corner. */
  perimeter: number;
}

/**
 * The outer boundary of the object in `mask` (one 8-connected object whose outer ring is background), traced
 * clockwise from its top-left pixel with Jacob's stopping criterion.
 */
export function traceContour(mask: Uint8Array, w: number, h: number): Contour {
  let start = -1;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) {
      start = i;
      break;
    }
  }
  if (start < 0) return { xs: new Int32Array(0), ys: new Int32Array(0), n: 0, perimeter: 0 };
  const sx = start % w;
  const sy = (start - sx) / w;
  const cap = 4 * mask.length + 8;
  let xs = new Int32Array(64);
  let ys = new Int32Array(64);
  let n = 0;
  let x = sx;
  let y = sy;
  // The backtrack (last background neighbour examined) as a direction from the current pixel: west at the start.
  let back = 0;
  let axial = 0;
  let diagonal = 0;
  let corners = 0;
  let firstMove = -1;
  let lastMove = -1;
  const inside = (px: number, py: number) => px >= 0 && py >= 0 && px < w && py < h && mask[py * w + px] === 1;
  for (let steps = 0; steps < cap; steps++) {
    if (n === xs.length) {
      const nx = new Int32Array(n * 2);
      nx.set(xs);
      xs = nx;
      const ny = new Int32Array(n * 2);
      ny.set(ys);
      ys = ny;
    }
    xs[n] = x;
    ys[n] = y;
    n++;
    let move = -1;
    for (let k = 1; k <= 8; k++) {
      const d = (back + k) & 7;
      if (inside(x + DX[d]!, y + DY[d]!)) {
        move = d;
        break;
      }
    }
    if (move < 0) break; // a single pixel
    const prev = (move + 7) & 7;
    const nx = x + DX[move]!;
    const ny = y + DY[move]!;
    // The new backtrack: the background neighbour examined just before, seen from the new pixel.
    back = DIR_OF[(y + DY[prev]! - ny + 1) * 3 + (x + DX[prev]! - nx + 1)]!;
    if (move & 1) diagonal++;
    else axial++;
    if (lastMove >= 0 && move !== lastMove) corners++;
    if (firstMove < 0) firstMove = move;
    lastMove = move;
    x = nx;
    y = ny;
    if (x === sx && y === sy) {
      // Back at the start: stop if the next move would repeat the first one (Jacob's criterion).
      let next = -1;
      for (let k = 1; k <= 8; k++) {
        const d = (back + k) & 7;
        if (inside(x + DX[d]!, y + DY[d]!)) {
          next = d;
          break;
        }
      }
      if (next === firstMove) {
        if (move !== firstMove) corners++;
        break;
      }
    }
  }
  const perimeter = n <= 1 ? 0 : Math.max(0, 0.98 * axial + 1.406 * diagonal - 0.091 * corners);
  return { xs: xs.subarray(0, n), ys: ys.subarray(0, n), n, perimeter };
}

/** Convex hull (Andrew's monotone chain), counter-clockwise without collinear points; flat arrays x0,y0,x1,y1… */
export function convexHull(points: Float64Array): Float64Array {
  const n = points.length / 2;
  if (n <= 1) return points.slice();
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => points[2 * a]! - points[2 * b]! || points[2 * a + 1]! - points[2 * b + 1]!);
  const hull = new Float64Array(4 * n + 4);
  let k = 0;
  const cross = (o: number, a: number, b: number) =>
    (hull[2 * a]! - hull[2 * o]!) * (points[2 * b + 1]! - hull[2 * o + 1]!) -
    (hull[2 * a + 1]! - hull[2 * o + 1]!) * (points[2 * b]! - hull[2 * o]!);
  const build = (i: number, floor: number) => {
    while (k >= floor + 2 && cross(k - 2, k - 1, i) <= 0) k--;
    hull[2 * k] = points[2 * i]!;
    hull[2 * k + 1] = points[2 * i + 1]!;
    k++;
  };
  for (let j = 0; j < n; j++) build(order[j]!, 0);
  const lower = k;
  for (let j = n - 2; j >= 0; j--) build(order[j]!, lower - 1);
  k--; // the first point closes the chain
  // Coincident points collapse to one vertex.
  if (k === 0) k = 1;
  return hull.slice(0, 2 * k);
}

export interface HullStats {
  area: number;
  perimeter: number;
  /** Lattice points inside or on the hull (Pick: area + boundary/2 + 1), for pixel centres. */
  latticePoints: number;
}

export function hullStats(hull: Float64Array): HullStats {
  const n = hull.length / 2;
  let area2 = 0;
  let perimeter = 0;
  let boundary = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const x1 = hull[2 * i]!;
    const y1 = hull[2 * i + 1]!;
    const x2 = hull[2 * j]!;
    const y2 = hull[2 * j + 1]!;
    area2 += x1 * y2 - x2 * y1;
    if (n > 1) {
      perimeter += Math.hypot(x2 - x1, y2 - y1);
      boundary += gcd(Math.abs(Math.round(x2 - x1)), Math.abs(Math.round(y2 - y1)));
    }
  }
  const area = Math.abs(area2) / 2;
  return { area, perimeter, latticePoints: area + boundary / 2 + 1 };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Maximum and minimum caliper widths (Feret diameters) of a convex polygon: the largest vertex distance, and the
 * smallest over edges of the farthest vertex from the edge's line.
 */
export function calipers(hull: Float64Array): { max: number; min: number } {
  const n = hull.length / 2;
  let max = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = Math.hypot(hull[2 * i]! - hull[2 * j]!, hull[2 * i + 1]! - hull[2 * j + 1]!);
      if (d > max) max = d;
    }
  }
  if (n < 3) return { max, min: 0 };
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ex = hull[2 * j]! - hull[2 * i]!;
    const ey = hull[2 * j + 1]! - hull[2 * i + 1]!;
    const len = Math.hypot(ex, ey);
    if (len === 0) continue;
    let far = 0;
    for (let k = 0; k < n; k++) {
      const d = Math.abs(ex * (hull[2 * k + 1]! - hull[2 * i + 1]!) - ey * (hull[2 * k]! - hull[2 * i]!)) / len;
      if (d > far) far = d;
    }
    if (far < min) min = far;
  }
  return { max, min: Number.isFinite(min) ? min : 0 };
}

/** The hull of the pixels as unit squares: the hull of the four corners of each hull vertex (pixel centre). */
export function cornerHull(centreHull: Float64Array): Float64Array {
  const n = centreHull.length / 2;
  const corners = new Float64Array(8 * n);
  for (let i = 0; i < n; i++) {
    const x = centreHull[2 * i]!;
    const y = centreHull[2 * i + 1]!;
    corners.set([x - 0.5, y - 0.5, x + 0.5, y - 0.5, x + 0.5, y + 0.5, x - 0.5, y + 0.5], 8 * i);
  }
  return convexHull(corners);
}

/**
 * Chamfer (3-4) distance from each object pixel to the nearest background pixel, in pixels (1 for a pixel on the
 * boundary). The mask's outer ring must be background.
 */
export function distanceTransform(mask: Uint8Array, w: number, h: number): Float32Array {
  const big = 1e9;
  const d = new Float64Array(w * h);
  for (let i = 0; i < d.length; i++) d[i] = mask[i] ? big : 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (d[i] === 0) continue;
      d[i] = Math.min(d[i]!, d[i - 1]! + 3, d[i - w]! + 3, d[i - w - 1]! + 4, d[i - w + 1]! + 4);
    }
  }
  for (let y = h - 2; y >= 1; y--) {
    for (let x = w - 2; x >= 1; x--) {
      const i = y * w + x;
      if (d[i] === 0) continue;
      d[i] = Math.min(d[i]!, d[i + 1]! + 3, d[i + w]! + 3, d[i + w + 1]! + 4, d[i + w - 1]! + 4);
    }
  }
  const out = new Float32Array(w * h);
  for (let i = 0; i < d.length; i++) out[i] = d[i]! / 3;
  return out;
}

/** Object pixels at most this far (px) from the background count as thin structure. */
export const THIN_PX = 2;

/** Size and shape of one object (holes filled) in a crop whose outer ring is background. */
export interface Shape {
  area: number;
  /** Centroid, crop coordinates. */
  cx: number;
  cy: number;
  /** Central moments summed over the pixels (for Hu's invariants). */
  mu20: number;
  mu02: number;
  mu11: number;
  mu30: number;
  mu03: number;
  mu21: number;
  mu12: number;
  major: number;
  minor: number;
  /** Angle of the major axis from the x axis (y down), radians. */
  theta: number;
  eccentricity: number;
  elongation: number;
  eqDiameter: number;
  contour: Contour;
  perimeter: number;
  solidity: number;
  convexity: number;
  circularity: number;
  feret: number;
  feretMin: number;
  dt: Float32Array;
  dtMax: number;
  dtMean: number;
  /** Shares of the area within THIN_PX of the background, and within a quarter of the largest distance. */
  thinShare: number;
  thinShareRel: number;
}

export function shapeOf(mask: Uint8Array, w: number, h: number): Shape {
  let area = 0;
  let sx = 0;
  let sy = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      area++;
      sx += x;
      sy += y;
    }
  }
  const cx = area ? sx / area : 0;
  const cy = area ? sy / area : 0;
  let mu20 = 0;
  let mu02 = 0;
  let mu11 = 0;
  let mu30 = 0;
  let mu03 = 0;
  let mu21 = 0;
  let mu12 = 0;
  for (let y = 0; y < h; y++) {
    const dy = y - cy;
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      const dx = x - cx;
      mu20 += dx * dx;
      mu02 += dy * dy;
      mu11 += dx * dy;
      mu30 += dx * dx * dx;
      mu03 += dy * dy * dy;
      mu21 += dx * dx * dy;
      mu12 += dx * dy * dy;
    }
  }
  const n = Math.max(1, area);
  // Axes from second moments, each pixel a unit square (variance 1/12 along each axis).
  const c20 = mu20 / n + 1 / 12;
  const c02 = mu02 / n + 1 / 12;
  const c11 = mu11 / n;
  const half = Math.sqrt(((c20 - c02) / 2) ** 2 + c11 * c11);
  const major = 4 * Math.sqrt((c20 + c02) / 2 + half);
  const minor = 4 * Math.sqrt(Math.max(1e-12, (c20 + c02) / 2 - half));
  const theta = 0.5 * Math.atan2(2 * c11, c20 - c02);

  const contour = traceContour(mask, w, h);
  const perimeter = contour.perimeter;
  const centres = new Float64Array(2 * contour.n);
  for (let i = 0; i < contour.n; i++) {
    centres[2 * i] = contour.xs[i]!;
    centres[2 * i + 1] = contour.ys[i]!;
  }
  const hull = convexHull(centres);
  const hs = hullStats(hull);
  const feret = calipers(cornerHull(hull));

  const dt = distanceTransform(mask, w, h);
  let dtMax = 0;
  let dtSum = 0;
  for (let i = 0; i < dt.length; i++) {
    if (!mask[i]) continue;
    dtSum += dt[i]!;
    if (dt[i]! > dtMax) dtMax = dt[i]!;
  }
  let thin = 0;
  let thinRel = 0;
  for (let i = 0; i < dt.length; i++) {
    if (!mask[i]) continue;
    if (dt[i]! <= THIN_PX) thin++;
    if (dt[i]! <= 0.25 * dtMax) thinRel++;
  }
  return {
    area,
    cx,
    cy,
    mu20,
    mu02,
    mu11,
    mu30,
    mu03,
    mu21,
    mu12,
    major,
    minor,
    theta,
    eccentricity: Math.sqrt(Math.max(0, 1 - (minor / major) ** 2)),
    elongation: major / minor,
    eqDiameter: 2 * Math.sqrt(area / Math.PI),
    contour,
    perimeter,
    solidity: area ? Math.min(1, area / hs.latticePoints) : 0,
    convexity: perimeter > 0 ? Math.min(1, hs.perimeter / perimeter) : 1,
    circularity: perimeter > 0 ? Math.min(1, (4 * Math.PI * area) / (perimeter * perimeter)) : 1,
    feret: feret.max,
    feretMin: feret.min,
    dt,
    dtMax,
    dtMean: dtSum / n,
    thinShare: thin / n,
    thinShareRel: thinRel / n,
  };
}
