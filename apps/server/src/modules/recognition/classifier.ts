/**
 * Random-forest classifier of feature vectors (docs/recognition.md "Classifier"): Breiman's forest of unpruned
 * CART trees (Gini, a random subset of features tried at each split), each tree grown on a class-balanced bootstrap
 * sample, stored as flat typed arrays so that a batch of 100k vectors is classified in seconds.
 */
import { mulberry32 } from '../../lib/random.ts';

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

export interface Prediction {
  class_id: number;
  /** Share of the trees voting for the class (0-1). */
  p: number;
}

const DEFAULT_TREES = 300;
const DEFAULT_MAX_PER_CLASS = 500;
const DEFAULT_SEED = 42;
/** Feature values are binned for split search; with fewer distinct values than this every value is its own bin. */
const MAX_BINS = 256;
/** Nodes this small are sorted by insertion instead of by counting (whose cost has a 256-bin floor). */
const SMALL_NODE = 48;
const MAX_DEPTH = 64;
const FORMAT = 'ipp-random-forest';
/** Rows voted on together by predictMany. */
const BLOCK = 256;

export class Classifier {
  /** Class ids, in the order of the forest's class indices. */
  readonly classes: number[];
  readonly featureCount: number;
  /** Index of each tree's root node. */
  private readonly roots: Int32Array;
  /** Per node: the split feature, or -1 for a leaf. */
  private readonly feature: Int16Array;
  /** Per node: the split threshold (x <= threshold goes left, to the next node), or the leaf's class index. */
  private readonly threshold: Float32Array;
  /** Per node: index of the right child (the left child is the next node). */
  private readonly right: Int32Array;
  /** The three arrays interleaved (feature, threshold, right) for prediction: one cache line per node visited. */
  private readonly nodes: Float32Array;

  private constructor(
    classes: number[],
    featureCount: number,
    roots: Int32Array,
    feature: Int16Array,
    threshold: Float32Array,
    right: Int32Array,
  ) {
    this.classes = classes;
    this.featureCount = featureCount;
    this.roots = roots;
    this.feature = feature;
    this.threshold = threshold;
    this.right = right;
    // Node numbers are exact in float32 below 2^24.
    if (feature.length >= 2 ** 24) throw new RangeError('forest too large');
    this.nodes = new Float32Array(feature.length * 3);
    for (let i = 0; i < feature.length; i++) {
      this.nodes[3 * i] = feature[i]!;
      this.nodes[3 * i + 1] = threshold[i]!;
      this.nodes[3 * i + 2] = right[i]!;
    }
  }

  /** @internal trainClassifier's constructor. */
  static fromForest(classes: number[], featureCount: number, forest: ForestArrays): Classifier {
    return new Classifier(classes, featureCount, forest.roots, forest.feature, forest.threshold, forest.right);
  }

  get trees(): number {
    return this.roots.length;
  }

  /** The `top` most voted classes (default 3), most votes first; ties go to the smaller class index. */
  predict(x: ArrayLike<number>, top = 3): Prediction[] {
    return this.predictMany([x], top)[0]!;
  }

  /**
   * predict() for a batch. Rows are voted on in blocks, tree after tree, so that a tree's nodes stay in the CPU's
   * cache while the block goes through it.
   */
  predictMany(xs: ArrayLike<number>[], top = 3): Prediction[][] {
    const p = this.featureCount;
    const K = this.classes.length;
    const { nodes, roots } = this;
    const out = new Array<Prediction[]>(xs.length);
    const block = new Float32Array(Math.min(BLOCK, xs.length) * p);
    const votes = new Uint32Array(Math.min(BLOCK, xs.length) * K);
    for (let start = 0; start < xs.length; start += BLOCK) {
      const m = Math.min(BLOCK, xs.length - start);
      for (let r = 0; r < m; r++) {
        const x = xs[start + r]!;
        if (x.length !== p) throw new RangeError(`expected ${p} features, got ${x.length}`);
        // As in training: float32 values, anything not finite as 0.
        for (let f = 0; f < p; f++) {
          const v = x[f]!;
          block[r * p + f] = Number.isFinite(v) ? v : 0;
        }
      }
      votes.fill(0);
      for (let t = 0; t < roots.length; t++) {
        const root = roots[t]!;
        for (let r = 0; r < m; r++) {
          const base = r * p;
          let i = root * 3;
          let f = nodes[i]!;
          while (f >= 0) {
            i = block[base + f]! <= nodes[i + 1]! ? i + 3 : nodes[i + 2]! * 3;
            f = nodes[i]!;
          }
          votes[r * K + nodes[i + 1]!]!++;
        }
      }
      for (let r = 0; r < m; r++) out[start + r] = this.ranked(votes.subarray(r * K, (r + 1) * K), top);
    }
    return out;
  }

  private ranked(votes: Uint32Array, top: number): Prediction[] {
    const { classes } = this;
    const k = Math.max(0, Math.min(Math.floor(top), classes.length));
    if (k === 0) return [];
    const best: number[] = [];
    for (let c = 0; c < votes.length; c++) {
      if (best.length === k && votes[c]! <= votes[best[k - 1]!]!) continue;
      let at = best.length;
      while (at > 0 && votes[best[at - 1]!]! < votes[c]!) at--;
      best.splice(at, 0, c);
      if (best.length > k) best.pop();
    }
    const n = this.roots.length;
    return best.map((c) => ({ class_id: classes[c]!, p: n > 0 ? votes[c]! / n : 0 }));
  }

  /** JSON-serialisable form (the node arrays as little-endian base64); fromJSON restores it exactly. */
  toJSON(): ClassifierJson {
    return {
      format: FORMAT,
      version: 1,
      classes: [...this.classes],
      feature_count: this.featureCount,
      roots: toBase64(this.roots),
      feature: toBase64(this.feature),
      threshold: toBase64(this.threshold),
      right: toBase64(this.right),
    };
  }

  static fromJSON(json: unknown): Classifier {
    const j = (typeof json === 'string' ? JSON.parse(json) : json) as Partial<ClassifierJson> | null;
    if (!j || j.format !== FORMAT || j.version !== 1) throw new TypeError('not a serialised classifier');
    const classes = j.classes;
    const featureCount = j.feature_count;
    if (!Array.isArray(classes) || !classes.every(Number.isInteger) || !Number.isInteger(featureCount)) {
      throw new TypeError('malformed classifier: classes or feature count');
    }
    const roots = new Int32Array(fromBase64(j.roots, 4));
    const feature = new Int16Array(fromBase64(j.feature, 2));
    const threshold = new Float32Array(fromBase64(j.threshold, 4));
    const right = new Int32Array(fromBase64(j.right, 4));
    const nodes = feature.length;
    if (threshold.length !== nodes || right.length !== nodes) throw new TypeError('malformed classifier: node arrays');
    // Children always come after their parent, so a walk down a tree ends whatever the stored numbers.
    for (let i = 0; i < nodes; i++) {
      const f = feature[i]!;
      if (f >= 0) {
        if (f >= featureCount! || right[i]! <= i + 1 || right[i]! >= nodes) throw new TypeError('malformed classifier: node');
      } else if (f !== -1 || !Number.isInteger(threshold[i]) || threshold[i]! < 0 || threshold[i]! >= classes.length) {
        throw new TypeError('malformed classifier: leaf');
      }
    }
    for (const r of roots) if (r < 0 || r >= nodes) throw new TypeError('malformed classifier: root');
    return new Classifier([...classes], featureCount!, roots, feature, threshold, right);
  }
}

export interface ClassifierJson {
  format: typeof FORMAT;
  version: 1;
  classes: number[];
  feature_count: number;
  roots: string;
  feature: string;
  threshold: string;
  right: string;
}

interface ForestArrays {
  roots: Int32Array;
  feature: Int16Array;
  threshold: Float32Array;
  right: Int32Array;
}

function toBase64(a: Int32Array | Int16Array | Float32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function fromBase64(s: unknown, size: number): ArrayBuffer {
  if (typeof s !== 'string') throw new TypeError('malformed classifier: array');
  const bytes = Buffer.from(s, 'base64');
  if (bytes.length % size !== 0) throw new TypeError('malformed classifier: array length');
  // A copy, aligned for the typed array.
  const out = new ArrayBuffer(bytes.length);
  new Uint8Array(out).set(bytes);
  return out;
}

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

export interface ClassMetrics {
  class_id: number;
  precision: number;
  recall: number;
  support: number;
}

export interface Evaluation {
  /** Share of samples whose predicted class is one of their accepted classes. */
  accuracy: number;
  /** Mean recall over the classes with samples. */
  balancedAccuracy: number;
  /** Row and column order of `confusion`: every class labelled or predicted, ascending. */
  classes: number[];
  perClass: ClassMetrics[];
  /** confusion[true][predicted] counts; a prediction among a sample's accepted classes counts as its true class. */
  confusion: number[][];
  n: number;
}

type LabelledSet = TrainingSet & { accepted?: number[][] };

/** Scores predictions (top-1 class per sample) against labels (y[i] and any class of accepted[i]); see Evaluation. */
export function scorePredictions(y: number[], predicted: number[], accepted?: number[][]): Evaluation {
  const n = y.length;
  const truth = y.map((label, i) => (predicted[i] === label || accepted?.[i]?.includes(predicted[i]!) ? predicted[i]! : label));
  const classes = [...new Set([...truth, ...predicted])].sort((a, b) => a - b);
  const at = new Map(classes.map((c, i) => [c, i]));
  const confusion = classes.map(() => new Array<number>(classes.length).fill(0));
  let correct = 0;
  for (let i = 0; i < n; i++) {
    confusion[at.get(truth[i]!)!]![at.get(predicted[i]!)!]!++;
    if (truth[i] === predicted[i]) correct++;
  }
  const perClass = classes.map((c, i) => {
    const support = confusion[i]!.reduce((s, v) => s + v, 0);
    const predictedAs = confusion.reduce((s, row) => s + row[i]!, 0);
    const hit = confusion[i]![i]!;
    return { class_id: c, precision: predictedAs ? hit / predictedAs : 0, recall: support ? hit / support : 0, support };
  });
  const withSupport = perClass.filter((m) => m.support > 0);
  return {
    accuracy: n ? correct / n : 0,
    balancedAccuracy: withSupport.length ? withSupport.reduce((s, m) => s + m.recall, 0) / withSupport.length : 0,
    classes,
    perClass,
    confusion,
    n,
  };
}

export function evaluate(model: Pick<Classifier, 'predictMany'>, set: LabelledSet): Evaluation {
  const predicted = model.predictMany(set.x, 1).map((p) => p[0]?.class_id ?? Number.NaN);
  return scorePredictions(set.y, predicted, set.accepted);
}

/**
 * Stratified k-fold assignment: each class's samples, shuffled, are dealt to the folds in turn, continuing where
 * the previous class stopped so that fold sizes differ by at most one.
 */
export function stratifiedFolds(y: number[], k: number, seed: number): number[] {
  const random = mulberry32(seed ^ 0x5bd1e995);
  const byClass = new Map<number, number[]>();
  y.forEach((c, i) => {
    const list = byClass.get(c);
    if (list) list.push(i);
    else byClass.set(c, [i]);
  });
  const fold = new Array<number>(y.length).fill(0);
  let next = 0;
  for (const c of [...byClass.keys()].sort((a, b) => a - b)) {
    const members = byClass.get(c)!;
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [members[i], members[j]] = [members[j]!, members[i]!];
    }
    for (const i of members) {
      fold[i] = next;
      next = (next + 1) % k;
    }
  }
  return fold;
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
