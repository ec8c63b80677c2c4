/**
 * The trained random forest (docs/recognition.md "Classifier"): its trees stored as flat typed arrays, voted on in
 * blocks so that a batch of 100k vectors is classified in seconds, and serialised to JSON exactly. Grown by
 * train-forest.ts.
 */

export interface Prediction {
  class_id: number;
  /** Share of the trees voting for the class (0-1). */
  p: number;
}

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

/** The node arrays that train-forest.ts grows, for Classifier.fromForest. */
export interface ForestArrays {
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
