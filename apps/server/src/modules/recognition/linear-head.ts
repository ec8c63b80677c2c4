import { mulberry32 } from '../../lib/random.ts';
import type { Prediction } from './classifier/forest.ts';
import type { TrainingSet } from './classifier/train-forest.ts';

/**
 * Multinomial logistic regression (softmax) on standardised features (docs/recognition.md, "Per-team models"):
 * the head a team's model puts on the backbone's embedding joined with the measured features. Trained by seeded
 * mini-batch Adam with L2 weight decay; the same data and seed give the same weights.
 */
export interface LinearOptions {
  seed?: number;
  epochs?: number;
  /** L2 penalty on the weights (per sample). */
  l2?: number;
  learningRate?: number;
  batch?: number;
  /**
   * Logit adjustment (Menon et al. 2021): trained with ln(class share) added to its logits, the head learns scores
   * free of the training set's class mix, so its argmax is the class most likely were every class equally common
   * (what balanced accuracy measures; a station's own mix is put back by prior adaptation, corrected-counts.ts).
   */
  balanced?: boolean;
  onProgress?: (fraction: number) => void;
}

const FORMAT = 'ipp-linear-head';
const Z_CLIP = 5;

export interface LinearJson {
  format: typeof FORMAT;
  version: 1;
  classes: number[];
  feature_count: number;
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number[];
}

export class LinearHead {
  constructor(
    readonly classes: number[],
    readonly featureCount: number,
    private readonly mean: Float64Array,
    private readonly scale: Float64Array,
    /** classes × features, row-major. */
    private readonly weights: Float64Array,
    private readonly bias: Float64Array,
  ) {}

  /** Raw scores (logits) per class, in the order of `classes`. */
  logits(values: ArrayLike<number>, out = new Float64Array(this.classes.length)): Float64Array {
    const d = this.featureCount;
    const z = standardise(values, this.mean, this.scale);
    for (let c = 0; c < this.classes.length; c++) {
      let s = this.bias[c]!;
      const row = c * d;
      for (let j = 0; j < d; j++) s += this.weights[row + j]! * z[j]!;
      out[c] = s;
    }
    return out;
  }

  /** Class probabilities (softmax of the logits divided by `temperature`). */
  proba(values: ArrayLike<number>, temperature = 1): Float64Array {
    return softmax(this.logits(values), temperature);
  }

  predict(values: ArrayLike<number>, k = 3): Prediction[] {
    return topOf(this.classes, this.proba(values), k);
  }

  toJSON(): LinearJson {
    return {
      format: FORMAT,
      version: 1,
      classes: this.classes,
      feature_count: this.featureCount,
      mean: [...this.mean],
      scale: [...this.scale],
      weights: [...this.weights].map((v) => Math.fround(v)),
      bias: [...this.bias],
    };
  }

  static fromJSON(json: LinearJson): LinearHead {
    const { classes, feature_count: d } = json;
    if (json.format !== FORMAT || json.version !== 1) throw new Error('not a linear head');
    if (
      json.mean.length !== d ||
      json.scale.length !== d ||
      json.weights.length !== classes.length * d ||
      json.bias.length !== classes.length
    )
      throw new Error('malformed linear head');
    return new LinearHead(
      classes,
      d,
      Float64Array.from(json.mean),
      Float64Array.from(json.scale),
      Float64Array.from(json.weights),
      Float64Array.from(json.bias),
    );
  }
}

function standardise(values: ArrayLike<number>, mean: Float64Array, scale: Float64Array): Float64Array {
  const z = new Float64Array(mean.length);
  for (let j = 0; j < mean.length; j++) {
    const v = ((values[j] ?? 0) - mean[j]!) * scale[j]!;
    z[j] = v > Z_CLIP ? Z_CLIP : v < -Z_CLIP ? -Z_CLIP : Number.isFinite(v) ? v : 0;
  }
  return z;
}

export function softmax(logits: ArrayLike<number>, temperature = 1): Float64Array {
  const out = new Float64Array(logits.length);
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]! / temperature);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp(logits[i]! / temperature - max);
    sum += out[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}

export function topOf(classes: number[], p: ArrayLike<number>, k: number): Prediction[] {
  const idx = classes.map((_, i) => i).sort((a, b) => p[b]! - p[a]! || a - b);
  return idx.slice(0, k).map((i) => ({ class_id: classes[i]!, p: p[i]! }));
}

export function trainLinear(set: TrainingSet, opts: LinearOptions = {}): LinearHead {
  const { x, y } = set;
  const n = x.length;
  if (n === 0) throw new Error('no samples');
  const d = x[0]!.length;
  const classes = [...new Set(y)].sort((a, b) => a - b);
  const index = new Map(classes.map((c, i) => [c, i]));
  const C = classes.length;
  const mean = new Float64Array(d);
  const scale = new Float64Array(d);
  for (const v of x) for (let j = 0; j < d; j++) mean[j]! += v[j]! / n;
  for (const v of x) for (let j = 0; j < d; j++) scale[j]! += (v[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = scale[j]! > 1e-12 ? 1 / Math.sqrt(scale[j]!) : 0;
  const z = x.map((v) => standardise(v, mean, scale));
  const t = y.map((c) => index.get(c)!);
  const logPrior = new Float64Array(C);
  if (opts.balanced) {
    for (const c of t) logPrior[c]!++;
    for (let c = 0; c < C; c++) logPrior[c] = Math.log(logPrior[c]! / n);
  }

  const epochs = opts.epochs ?? 40;
  const batch = opts.batch ?? 64;
  const l2 = opts.l2 ?? 1e-3;
  const lr0 = opts.learningRate ?? 0.01;
  const W = new Float64Array(C * d);
  const b = new Float64Array(C);
  // Adam state.
  const mW = new Float64Array(C * d);
  const vW = new Float64Array(C * d);
  const mB = new Float64Array(C);
  const vB = new Float64Array(C);
  const gW = new Float64Array(C * d);
  const gB = new Float64Array(C);
  const beta1 = 0.9;
  const beta2 = 0.999;
  const random = mulberry32(opts.seed ?? 42);
  const order = Array.from({ length: n }, (_, i) => i);
  const p = new Float64Array(C);
  const steps = epochs * Math.ceil(n / batch);
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (let start = 0; start < n; start += batch) {
      const end = Math.min(n, start + batch);
      gW.fill(0);
      gB.fill(0);
      for (let k = start; k < end; k++) {
        const s = order[k]!;
        const zs = z[s]!;
        let max = -Infinity;
        for (let c = 0; c < C; c++) {
          let v = b[c]! + logPrior[c]!;
          const row = c * d;
          for (let j = 0; j < d; j++) v += W[row + j]! * zs[j]!;
          p[c] = v;
          if (v > max) max = v;
        }
        let sum = 0;
        for (let c = 0; c < C; c++) {
          p[c] = Math.exp(p[c]! - max);
          sum += p[c]!;
        }
        for (let c = 0; c < C; c++) {
          const g = p[c]! / sum - (c === t[s] ? 1 : 0);
          if (g === 0) continue;
          gB[c]! += g;
          const row = c * d;
          for (let j = 0; j < d; j++) gW[row + j]! += g * zs[j]!;
        }
      }
      const m = end - start;
      step++;
      // Cosine decay of the learning rate over the whole run.
      const lr = lr0 * 0.5 * (1 + Math.cos((Math.PI * step) / steps));
      const c1 = 1 - beta1 ** step;
      const c2 = 1 - beta2 ** step;
      for (let i = 0; i < W.length; i++) {
        const g = gW[i]! / m + l2 * W[i]!;
        mW[i] = beta1 * mW[i]! + (1 - beta1) * g;
        vW[i] = beta2 * vW[i]! + (1 - beta2) * g * g;
        W[i]! -= (lr * (mW[i]! / c1)) / (Math.sqrt(vW[i]! / c2) + 1e-8);
      }
      for (let c = 0; c < C; c++) {
        const g = gB[c]! / m;
        mB[c] = beta1 * mB[c]! + (1 - beta1) * g;
        vB[c] = beta2 * vB[c]! + (1 - beta2) * g * g;
        b[c]! -= (lr * (mB[c]! / c1)) / (Math.sqrt(vB[c]! / c2) + 1e-8);
      }
    }
    opts.onProgress?.((epoch + 1) / epochs);
  }
  // Weights are stored as float32 (half the size in ai_models); rounding them here makes the trained model and the
  // stored one predict exactly alike.
  for (let i = 0; i < W.length; i++) W[i] = Math.fround(W[i]!);
  return new LinearHead(classes, d, mean, scale, W, b);
}
