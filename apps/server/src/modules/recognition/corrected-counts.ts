import { mulberry32 } from '../../lib/random.ts';

/**
 * Corrected abundance (docs/recognition.md, "Corrected counts"): adjusted classify-and-count. A model that confuses
 * classes biases every count: with M[t][p] the share of true class t predicted as p (measured by the model's
 * cross-validation), the expected predicted counts are q = Mᵀ n for true counts n. Given the observed predicted
 * counts q, the estimate n̂ is the non-negative least-squares solution of Mᵀ n = q, and its interval comes from a
 * parametric bootstrap: the confusion rows redrawn from their cross-validation counts (Dirichlet) and the observed
 * counts from a multinomial, solved again each time.
 */
export interface CorrectedCount {
  class_id: number;
  raw: number;
  corrected: number;
  low: number;
  high: number;
}

export interface ConfusionCounts {
  /** Class ids, the order of the matrix's rows and columns. */
  classes: number[];
  /** counts[t][p]: cross-validated samples of true class t predicted as p. */
  counts: number[][];
}

/** Non-negative least squares min ‖A x − b‖ (A m×k) by projected coordinate descent; k is small (classes). */
export function nnls(A: number[][], b: number[], iterations = 500): number[] {
  const m = A.length;
  const k = A[0]?.length ?? 0;
  const x = new Array<number>(k).fill(0);
  const colNorm = Array.from({ length: k }, (_, j) => A.reduce((s, row) => s + row[j]! * row[j]!, 0));
  const r = [...b]; // residual b − A x
  for (let it = 0; it < iterations; it++) {
    let moved = 0;
    for (let j = 0; j < k; j++) {
      if (colNorm[j]! === 0) continue;
      let g = 0;
      for (let i = 0; i < m; i++) g += A[i]![j]! * r[i]!;
      const next = Math.max(0, x[j]! + g / colNorm[j]!);
      const d = next - x[j]!;
      if (d !== 0) {
        for (let i = 0; i < m; i++) r[i]! -= A[i]![j]! * d;
        x[j] = next;
        moved = Math.max(moved, Math.abs(d));
      }
    }
    if (moved < 1e-9) break;
  }
  return x;
}

/** Point estimate: true counts whose expected predictions best match the observed ones (rows normalised). */
export function adjustCounts(confusion: number[][], observed: number[]): number[] {
  const k = observed.length;
  // A class with no cross-validated example is assumed always named right.
  const rates = confusion.map((row, t) => {
    const total = row.reduce((a, v) => a + v, 0);
    return row.map((v, j) => (total > 0 ? v / total : j === t ? 1 : 0));
  });
  // Mᵀ: rows are predicted classes p, columns true classes t.
  const At = Array.from({ length: k }, (_, p) => Array.from({ length: k }, (_, t) => rates[t]![p]!));
  return nnls(At, observed);
}

/** A Gamma(shape, 1) draw. */
export function gamma(random: () => number, shape: number): number {
  // Marsaglia–Tsang, with the boost for shape < 1.
  if (shape < 1) return gamma(random, shape + 1) * Math.pow(random() || 1e-12, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      const u1 = random() || 1e-12;
      const u2 = random();
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random() || 1e-12;
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A binomial draw: exact below 50 trials, else the normal approximation (rounded, clamped), O(1) for any n. */
function binomial(random: () => number, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (n < 50) {
    let k = 0;
    for (let i = 0; i < n; i++) if (random() < p) k++;
    return k;
  }
  const u1 = random() || 1e-12;
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random());
  return Math.max(0, Math.min(n, Math.round(n * p + z * Math.sqrt(n * p * (1 - p)))));
}

/** A multinomial draw as conditional binomials: O(classes) whatever the count. */
function multinomial(random: () => number, n: number, p: number[]): number[] {
  const out = new Array<number>(p.length).fill(0);
  let left = n;
  let mass = p.reduce((a, v) => a + v, 0);
  for (let j = 0; j < p.length && left > 0; j++) {
    const k = j === p.length - 1 ? left : binomial(random, left, mass > 0 ? p[j]! / mass : 0);
    out[j] = k;
    left -= k;
    mass -= p[j]!;
  }
  return out;
}

/**
 * Corrected counts with a 95% bootstrap interval. `observed` maps class id → AI-labelled count; classes the model
 * does not know are returned uncorrected (their interval is the count itself).
 */
export function correctedCounts(
  confusion: ConfusionCounts,
  observed: Map<number, number>,
  opts: { replicates?: number; seed?: number; pseudoCount?: number } = {},
): CorrectedCount[] {
  const { classes, counts } = confusion;
  const q = classes.map((c) => observed.get(c) ?? 0);
  const total = q.reduce((a, v) => a + v, 0);
  const point = adjustCounts(counts, q);
  // Rescale so the corrected counts keep the total (the model labelled `total` ROIs, whatever their true classes).
  const scale = (v: number[]) => {
    const s = v.reduce((a, x) => a + x, 0);
    return s > 0 ? v.map((x) => (x * total) / s) : v;
  };
  const estimate = scale(point);
  const replicates = opts.replicates ?? 200;
  const random = mulberry32(opts.seed ?? 42);
  const prior = opts.pseudoCount ?? 0.5 / Math.max(1, classes.length);
  const draws: number[][] = classes.map(() => []);
  if (total > 0) {
    for (let r = 0; r < replicates; r++) {
      // Each confusion row redrawn around its cross-validation counts. The prior adds ½ to a whole row (spread over
      // its cells), not ½ to every cell: with 33 classes that put 16.5 pretend errors beside a class's 24 right
      // answers and gave intervals from 0 for classes the model never got wrong (issue 38).
      const rows = counts.map((row) => row.map((v) => gamma(random, v + prior)));
      const qr = multinomial(
        random,
        total,
        q.map((v) => v / total),
      );
      scale(adjustCounts(rows, qr)).forEach((v, i) => draws[i]!.push(v));
    }
  }
  const out: CorrectedCount[] = classes.map((c, i) => {
    const d = draws[i]!.sort((a, b) => a - b);
    const at = (f: number) => (d.length ? d[Math.min(d.length - 1, Math.floor(f * d.length))]! : estimate[i]!);
    return {
      class_id: c,
      raw: q[i]!,
      corrected: estimate[i]!,
      low: Math.min(at(0.025), estimate[i]!),
      high: Math.max(at(0.975), estimate[i]!),
    };
  });
  for (const [c, n] of observed) if (!classes.includes(c)) out.push({ class_id: c, raw: n, corrected: n, low: n, high: n });
  return out;
}

/**
 * EM prior adaptation (Saerens, Latinne & Decaestecker 2002): the class mix π of a batch of images, given each image's
 * class probabilities from a model trained as if every class were equally common (team-model.ts, logit adjustment).
 * Each step reweights every image's probabilities by π and takes their mean as the next π; it climbs the likelihood
 * of the batch and stops when π moves less than 10⁻⁷ (at most 500 steps).
 */
export function emPriors(posteriors: readonly ArrayLike<number>[], opts: { iterations?: number } = {}): Float64Array {
  const n = posteriors.length;
  const k = posteriors[0]?.length ?? 0;
  let prior = new Float64Array(k).fill(1 / Math.max(1, k));
  if (n === 0) return prior;
  const next = new Float64Array(k);
  for (let it = 0; it < (opts.iterations ?? 500); it++) {
    next.fill(0);
    for (const p of posteriors) {
      let z = 0;
      for (let j = 0; j < k; j++) z += p[j]! * prior[j]!;
      if (z <= 0) continue;
      for (let j = 0; j < k; j++) next[j]! += (p[j]! * prior[j]!) / z;
    }
    let moved = 0;
    for (let j = 0; j < k; j++) {
      next[j]! /= n;
      moved = Math.max(moved, Math.abs(next[j]! - prior[j]!));
    }
    prior = Float64Array.from(next);
    if (moved < 1e-7) break;
  }
  return prior;
}

/**
 * Counts by EM prior adaptation with a 95% interval: the estimate is n·π̂. The interval is a bootstrap of the
 * batch's images (the mix estimated again on each resample) in which every image's class is then drawn from its
 * probabilities adapted to that mix: it holds both the uncertainty of the mix and that of each image's class.
 */
export function emCounts(
  posteriors: readonly ArrayLike<number>[],
  opts: { replicates?: number; seed?: number } = {},
): { corrected: number; low: number; high: number }[] {
  const n = posteriors.length;
  const k = posteriors[0]?.length ?? 0;
  const prior = emPriors(posteriors);
  const estimate = [...prior].map((v) => v * n);
  const replicates = opts.replicates ?? 100;
  const random = mulberry32(opts.seed ?? 42);
  const draws: number[][] = Array.from({ length: k }, () => []);
  if (n > 0) {
    const adapted = new Float64Array(k);
    for (let r = 0; r < replicates; r++) {
      const resample = Array.from({ length: n }, () => posteriors[Math.floor(random() * n)]!);
      const pr = emPriors(resample, { iterations: 100 });
      const count = new Array<number>(k).fill(0);
      for (const p of posteriors) {
        let z = 0;
        for (let j = 0; j < k; j++) z += adapted[j] = p[j]! * pr[j]!;
        let u = random() * z;
        let j = 0;
        while (j < k - 1 && (u -= adapted[j]!) > 0) j++;
        count[j]!++;
      }
      count.forEach((c, j) => draws[j]!.push(c));
    }
  }
  return estimate.map((e, j) => {
    const d = draws[j]!.sort((a, b) => a - b);
    const at = (f: number) => (d.length ? d[Math.min(d.length - 1, Math.floor(f * d.length))]! : e);
    return { corrected: e, low: Math.min(at(0.025), e), high: Math.max(at(0.975), e) };
  });
}
