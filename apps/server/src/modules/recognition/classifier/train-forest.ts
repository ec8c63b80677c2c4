/**
 * Growing the random forest (docs/recognition.md "Classifier"): Breiman's forest of unpruned CART trees (Gini, a
 * random subset of features tried at each split), each tree grown on a class-balanced bootstrap sample; and its
 * stratified k-fold cross-validation.
 */
import { mulberry32 } from '../../../lib/random.ts';
import { Classifier, type ForestArrays } from './forest.ts';
import { scorePredictions, stratifiedFolds, type Evaluation, type LabelledSet } from './evaluation.ts';

export interface TrainingSet {
  x: ArrayLike<number>[];
  /** Class ids (any integers). */
  y: number[];
}

export interface TrainOptions {
  seed?: number;
  /** Trees in the forest (default 300). */
  trees?: number;
  /** Called after each tree with the share of the forest grown (0-1]. */
  onProgress?: (fraction: number) => void;
  /**
   * Samples drawn per class for each tree (default 500): every class is drawn equally often, min(maxPerClass,
   * n / classes) times with replacement, which bounds the time of a tree whatever the size of the set.
   */
  maxPerClass?: number;
  /** Features tried at each split (default √features). */
  mtry?: number;
}

const DEFAULT_TREES = 300;
const DEFAULT_MAX_PER_CLASS = 500;
const DEFAULT_SEED = 42;
/** Feature values are binned for split search; with fewer distinct values than this every value is its own bin. */
const MAX_BINS = 256;
/** Nodes this small are sorted by insertion instead of by counting (whose cost has a 256-bin floor). */
const SMALL_NODE = 48;
const MAX_DEPTH = 64;

/** Per feature: every sample's bin, and the smallest and largest value of each bin. */
interface Binned {
  /** bins[f * n + i]: bin of sample i on feature f. */
  bins: Uint8Array;
  /** lo[f * MAX_BINS + b], hi[…]: extreme values of bin b on feature f. */
  lo: Float32Array;
  hi: Float32Array;
}

function binFeatures(x: Float32Array, n: number, p: number): Binned {
  const bins = new Uint8Array(n * p);
  const lo = new Float32Array(p * MAX_BINS);
  const hi = new Float32Array(p * MAX_BINS);
  const column = new Float32Array(n);
  const order = new Int32Array(n);
  for (let f = 0; f < p; f++) {
    for (let i = 0; i < n; i++) {
      column[i] = x[i * p + f]!;
      order[i] = i;
    }
    order.sort((a, b) => column[a]! - column[b]!);
    // Distinct values in order; a new bin starts at a distinct value once the current bin holds its share.
    let distinct = 1;
    for (let k = 1; k < n; k++) if (column[order[k]!]! !== column[order[k - 1]!]!) distinct++;
    const share = distinct <= MAX_BINS ? 0 : n / MAX_BINS;
    let bin = 0;
    let inBin = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const v = column[i]!;
      if (k > 0 && v !== column[order[k - 1]!]!) {
        if (inBin >= share && bin < MAX_BINS - 1) {
          bin++;
          inBin = 0;
        }
      }
      if (inBin === 0) lo[f * MAX_BINS + bin] = v;
      hi[f * MAX_BINS + bin] = v;
      inBin++;
      bins[f * n + i] = bin;
    }
  }
  return { bins, lo, hi };
}

/**
 * Trains a forest. Class ids may be any integers; each tree sees every class equally often (class balancing), so
 * a rare class is not out-voted by a common one. Deterministic for a given seed.
 */
export function trainClassifier(set: TrainingSet, opts: TrainOptions = {}): Classifier {
  const n = set.x.length;
  if (n === 0 || set.y.length !== n) throw new RangeError('training set needs as many labels as samples, at least one');
  const p = set.x[0]!.length;
  if (p === 0 || p > 32767) throw new RangeError('feature vectors need 1 to 32767 entries');
  const x = new Float32Array(n * p);
  for (let i = 0; i < n; i++) {
    const row = set.x[i]!;
    if (row.length !== p) throw new RangeError(`sample ${i} has ${row.length} features, expected ${p}`);
    for (let f = 0; f < p; f++) {
      const v = row[f]!;
      x[i * p + f] = Number.isFinite(v) ? v : 0;
    }
  }
  const classes = [...new Set(set.y)].sort((a, b) => a - b);
  const index = new Map(classes.map((c, i) => [c, i]));
  const y = Int32Array.from(set.y, (c) => index.get(c)!);
  const K = classes.length;
  const byClass: number[][] = classes.map(() => []);
  for (let i = 0; i < n; i++) byClass[y[i]!]!.push(i);

  const trees = Math.max(1, Math.floor(opts.trees ?? DEFAULT_TREES));
  const perClass = Math.max(1, Math.min(opts.maxPerClass ?? DEFAULT_MAX_PER_CLASS, Math.ceil(n / K)));
  const mtry = Math.max(1, Math.min(p, Math.floor(opts.mtry ?? Math.sqrt(p))));
  const random = mulberry32(opts.seed ?? DEFAULT_SEED);
  const binned = binFeatures(x, n, p);
  const builder = new TreeBuilder(binned, y, n, p, K, mtry, random);
  const roots = new Int32Array(trees);
  const sample = new Int32Array(perClass * K);
  for (let t = 0; t < trees; t++) {
    let m = 0;
    for (const members of byClass) {
      for (let j = 0; j < perClass; j++) sample[m++] = members[Math.floor(random() * members.length)]!;
    }
    roots[t] = builder.grow(sample);
    opts.onProgress?.((t + 1) / trees);
  }
  return Classifier.fromForest(classes, p, builder.arrays(roots));
}

class TreeBuilder {
  private feature = new Int16Array(1024);
  private threshold = new Float32Array(1024);
  private right = new Int32Array(1024);
  private nodes = 0;
  private readonly left: Int32Array;
  private readonly right_: Int32Array;
  private readonly counts: Int32Array;
  private readonly binCount = new Int32Array(MAX_BINS + 1);
  private readonly features: Int32Array;

  constructor(
    private readonly binned: Binned,
    private readonly y: Int32Array,
    private readonly n: number,
    private readonly p: number,
    private readonly K: number,
    private readonly mtry: number,
    private readonly random: () => number,
  ) {
    this.left = new Int32Array(K);
    this.right_ = new Int32Array(K);
    this.counts = new Int32Array(K);
    this.features = Int32Array.from({ length: p }, (_, i) => i);
  }

  arrays(roots: Int32Array): ForestArrays {
    return {
      roots,
      feature: this.feature.slice(0, this.nodes),
      threshold: this.threshold.slice(0, this.nodes),
      right: this.right.slice(0, this.nodes),
    };
  }

  private addNode(): number {
    if (this.nodes === this.feature.length) {
      const grow = <T extends Int16Array | Float32Array | Int32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.feature = grow(this.feature, (k) => new Int16Array(k));
      this.threshold = grow(this.threshold, (k) => new Float32Array(k));
      this.right = grow(this.right, (k) => new Int32Array(k));
    }
    return this.nodes++;
  }

  /** Grows one tree on the samples (indices, repeats allowed); returns its root. */
  grow(sample: Int32Array): number {
    const idx = Int32Array.from(sample);
    const scratch = new Int32Array(idx.length);
    const root = this.nodes;
    // Depth-first, left before right, so that a node's left child is the next node.
    const stack: { lo: number; hi: number; depth: number; parent: number }[] = [{ lo: 0, hi: idx.length, depth: 0, parent: -1 }];
    while (stack.length > 0) {
      const { lo, hi, depth, parent } = stack.pop()!;
      const node = this.addNode();
      if (parent >= 0) this.right[parent] = node;
      const split = depth < MAX_DEPTH ? this.bestSplit(idx, lo, hi, scratch) : null;
      if (!split) {
        this.feature[node] = -1;
        this.threshold[node] = this.majority(idx, lo, hi);
        this.right[node] = 0;
        continue;
      }
      // Partition idx[lo, hi) by the split's bin, stable.
      const bins = this.binned.bins;
      const base = split.feature * this.n;
      let l = lo;
      let r = 0;
      for (let k = lo; k < hi; k++) {
        const i = idx[k]!;
        if (bins[base + i]! <= split.bin) idx[l++] = i;
        else scratch[r++] = i;
      }
      idx.set(scratch.subarray(0, r), l);
      this.feature[node] = split.feature;
      this.threshold[node] = split.threshold;
      // The right subtree is pushed first so that the left one is built next; it records itself in right[node].
      stack.push({ lo: l, hi, depth: depth + 1, parent: node });
      stack.push({ lo, hi: l, depth: depth + 1, parent: -1 });
    }
    return root;
  }

  private majority(idx: Int32Array, lo: number, hi: number): number {
    const counts = this.counts;
    counts.fill(0);
    for (let k = lo; k < hi; k++) counts[this.y[idx[k]!]!]!++;
    let best = 0;
    for (let c = 1; c < this.K; c++) if (counts[c]! > counts[best]!) best = c;
    return best;
  }

  /** The best Gini split over `mtry` random features, or null if the node is pure or no feature separates it. */
  private bestSplit(idx: Int32Array, lo: number, hi: number, scratch: Int32Array) {
    const size = hi - lo;
    if (size < 2) return null;
    const { y, K, counts } = this;
    counts.fill(0);
    for (let k = lo; k < hi; k++) counts[y[idx[k]!]!]!++;
    let parentSq = 0;
    for (let c = 0; c < K; c++) {
      if (counts[c] === size) return null;
      parentSq += counts[c]! * counts[c]!;
    }
    // Gini decrease is maximal where leftSq/nL + rightSq/nR is; it must beat the parent's sq/n.
    let bestScore = parentSq / size + 1e-9;
    let bestFeature = -1;
    let bestBin = 0;
    let bestNextBin = 0;
    const features = this.features;
    const { bins } = this.binned;
    const n = this.n;
    const order = scratch;
    const binCount = this.binCount;
    const left = this.left;
    const right = this.right_;
    // Partial Fisher-Yates: the first `tried` entries of `features` are this node's random features. Features
    // constant in the node do not count towards mtry (as in Breiman's and scikit-learn's forests).
    let tried = 0;
    let drawn = 0;
    while (tried < this.mtry && drawn < this.p) {
      const j = drawn + Math.floor(this.random() * (this.p - drawn));
      const f = features[j]!;
      features[j] = features[drawn]!;
      features[drawn] = f;
      drawn++;
      const base = f * n;
      // Order the node's samples by bin.
      if (size <= SMALL_NODE) {
        for (let k = 0; k < size; k++) {
          const i = idx[lo + k]!;
          const b = bins[base + i]!;
          let at = k;
          while (at > 0 && bins[base + order[at - 1]!]! > b) {
            order[at] = order[at - 1]!;
            at--;
          }
          order[at] = i;
        }
      } else {
        binCount.fill(0);
        for (let k = lo; k < hi; k++) binCount[bins[base + idx[k]!]! + 1]!++;
        for (let b = 1; b <= MAX_BINS; b++) binCount[b]! += binCount[b - 1]!;
        for (let k = lo; k < hi; k++) {
          const i = idx[k]!;
          order[binCount[bins[base + i]!]!++] = i;
        }
      }
      const firstBin = bins[base + order[0]!]!;
      const lastBin = bins[base + order[size - 1]!]!;
      if (firstBin === lastBin) continue;
      tried++;
      left.fill(0);
      for (let c = 0; c < K; c++) right[c] = counts[c]!;
      let leftSq = 0;
      let rightSq = parentSq;
      for (let k = 0; k < size - 1; k++) {
        const i = order[k]!;
        const c = y[i]!;
        leftSq += 2 * left[c]! + 1;
        left[c]!++;
        rightSq -= 2 * right[c]! - 1;
        right[c]!--;
        const b = bins[base + i]!;
        const nb = bins[base + order[k + 1]!]!;
        if (b === nb) continue;
        const nl = k + 1;
        const score = leftSq / nl + rightSq / (size - nl);
        if (score > bestScore) {
          bestScore = score;
          bestFeature = f;
          bestBin = b;
          bestNextBin = nb;
        }
      }
    }
    if (bestFeature < 0) return null;
    const below = this.binned.hi[bestFeature * MAX_BINS + bestBin]!;
    const above = this.binned.lo[bestFeature * MAX_BINS + bestNextBin]!;
    let threshold = Math.fround((below + above) / 2);
    if (!(threshold >= below && threshold < above)) threshold = below;
    return { feature: bestFeature, bin: bestBin, threshold };
  }
}

/**
 * Stratified k-fold cross-validation: every sample is predicted by a forest trained without it. `accepted[i]`
 * lists every class counted as correct for sample i (default its label).
 */
export function crossValidate(
  set: LabelledSet,
  k: number,
  opts: TrainOptions & { onFold?: (i: number) => void } = {},
): Evaluation {
  const n = set.x.length;
  const folds = Math.max(2, Math.min(Math.floor(k), n));
  if (n < 2) throw new RangeError('cross-validation needs at least two samples');
  const assignment = stratifiedFolds(set.y, folds, opts.seed ?? DEFAULT_SEED);
  const predicted = new Array<number>(n).fill(Number.NaN);
  for (let f = 0; f < folds; f++) {
    const train: TrainingSet = { x: [], y: [] };
    const test: number[] = [];
    for (let i = 0; i < n; i++) {
      if (assignment[i] === f) test.push(i);
      else {
        train.x.push(set.x[i]!);
        train.y.push(set.y[i]!);
      }
    }
    if (test.length > 0 && train.x.length > 0) {
      const model = trainClassifier(train, {
        ...opts,
        onProgress: opts.onProgress && ((fraction) => opts.onProgress!((f + fraction) / folds)),
      });
      const out = model.predictMany(
        test.map((i) => set.x[i]!),
        1,
      );
      test.forEach((i, j) => (predicted[i] = out[j]![0]!.class_id));
    }
    opts.onFold?.(f);
  }
  return scorePredictions(set.y, predicted, set.accepted);
}
