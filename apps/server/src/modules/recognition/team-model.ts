import { Classifier, type Prediction } from './classifier/forest.ts';
import { scorePredictions, stratifiedFolds, type Evaluation } from './classifier/evaluation.ts';
import { trainClassifier, type TrainingSet } from './classifier/train-forest.ts';
import { LinearHead, topOf, trainLinear, type LinearJson } from './linear-head.ts';
import { NetworkMember, type NetworkMemberJson } from './network-member.ts';

/**
 * A team's model (docs/recognition.md, "Per-team models"): a random forest and a softmax regression, both trained
 * on the team's recognition vectors (measured features and the backbone's embedding), their class probabilities
 * averaged. Measured on held-out PWSSC images the average keeps the regression's top-1 accuracy and the forest's
 * balanced accuracy (docs/benchmarks.md); each alone loses one of the two.
 */
export interface Predictor {
  readonly classes: number[];
  predict(x: ArrayLike<number>, top?: number): Prediction[];
  predictMany(xs: ArrayLike<number>[], top?: number): Prediction[][];
}

const FORMAT = 'ipp-team-model';
export const ENSEMBLE_TREES = 200;

/** The weights of the network member the cross-validation chooses among (issue 38). */
export const MEMBER_WEIGHTS = [0, 0.25, 0.5, 0.75, 1] as const;

export interface TeamModelJson {
  format: typeof FORMAT;
  /** 1: forest and regression; 2: and the network member (network-member.ts) with its weight. */
  version: 1 | 2;
  forest: unknown;
  linear: LinearJson;
  /** Calibration temperature fitted on the cross-validation (1 = none). */
  temperature: number;
  member?: NetworkMemberJson | null;
  /** The member's share of the probabilities, chosen by the cross-validation's balanced accuracy. */
  member_weight?: number;
}

export class TeamModel implements Predictor {
  readonly classes: number[];
  constructor(
    readonly forest: Classifier,
    readonly linear: LinearHead,
    /** Calibration: probabilities are raised to 1/temperature and renormalised (temperature on log-probabilities). */
    readonly temperature = 1,
    /** The backbone's own head mapped to the team's classes (absent for vectors without the network's scores). */
    readonly member: NetworkMember | null = null,
    readonly memberWeight = 0,
  ) {
    this.classes = linear.classes;
  }

  withTemperature(temperature: number): TeamModel {
    return new TeamModel(this.forest, this.linear, temperature, this.member, this.memberWeight);
  }

  withMemberWeight(weight: number): TeamModel {
    return new TeamModel(this.forest, this.linear, this.temperature, this.member, this.member ? weight : 0);
  }

  /** Uncalibrated: the forest and regression's average, and the member's probabilities (null without one). */
  parts(xs: ArrayLike<number>[]): { team: Float64Array[]; member: Float64Array[] | null } {
    const index = new Map(this.classes.map((c, i) => [c, i]));
    const votes = this.forest.predictMany(xs, this.forest.classes.length);
    const team = xs.map((x, r) => {
      const p = this.linear.proba(x);
      for (let i = 0; i < p.length; i++) p[i]! *= 0.5;
      for (const v of votes[r]!) {
        const i = index.get(v.class_id);
        if (i !== undefined) p[i]! += 0.5 * v.p;
      }
      return p;
    });
    const member = this.member;
    return { team, member: member ? xs.map((x) => member.proba(x)) : null };
  }

  /** Class probabilities in the order of `classes`: the mean of the forest's vote shares and the regression's. */
  proba(x: ArrayLike<number>): Float64Array {
    return this.probaMany([x])[0]!;
  }

  probaMany(xs: ArrayLike<number>[]): Float64Array[] {
    const { team, member } = this.parts(xs);
    return team.map((p, r) => calibrate(mixMember(p, member?.[r], this.memberWeight), this.temperature));
  }

  predict(x: ArrayLike<number>, top = 3): Prediction[] {
    return topOf(this.classes, this.proba(x), top);
  }

  predictMany(xs: ArrayLike<number>[], top = 3): Prediction[][] {
    return this.probaMany(xs).map((p) => topOf(this.classes, p, top));
  }

  toJSON(): TeamModelJson {
    return {
      format: FORMAT,
      version: 2,
      forest: this.forest.toJSON(),
      linear: this.linear.toJSON(),
      temperature: this.temperature,
      member: this.member?.toJSON() ?? null,
      member_weight: this.memberWeight,
    };
  }
}

/** A stored model: a team model, or a forest of the first releases (measured features only). */
export function loadPredictor(json: unknown): Predictor {
  const j = json as { format?: string };
  if (j && j.format === FORMAT) {
    const t = json as TeamModelJson;
    if (t.version !== 1 && t.version !== 2) throw new Error('unknown team model version');
    const temperature = t.temperature;
    if (!(typeof temperature === 'number' && temperature > 0 && Number.isFinite(temperature)))
      throw new Error('malformed team model temperature');
    const member = t.version === 2 && t.member ? NetworkMember.fromJSON(t.member) : null;
    const weight = member ? (t.member_weight ?? 0) : 0;
    if (!(weight >= 0 && weight <= 1)) throw new Error('malformed team model member weight');
    return new TeamModel(Classifier.fromJSON(t.forest), LinearHead.fromJSON(t.linear), temperature, member, weight);
  }
  return Classifier.fromJSON(json);
}

export interface TeamTrainOptions {
  seed?: number;
  /**
   * balanced (default): the regression is trained with logit adjustment, so both halves answer as if every class
   * were equally common (issue 38: balanced accuracy is the headline; prior adaptation puts a station's mix back);
   * natural: the regression learns the training set's class mix, as before issue 38.
   */
  prior?: 'balanced' | 'natural';
  /** The network member's weight (0 by default; trainAndEvaluate passes the cross-validation's choice). */
  memberWeight?: number;
  onProgress?: (fraction: number) => void;
}

export function trainTeamModel(set: TrainingSet, opts: TeamTrainOptions = {}): TeamModel {
  const seed = opts.seed ?? 42;
  const report = opts.onProgress;
  const forest = trainClassifier(set, { seed, trees: ENSEMBLE_TREES, onProgress: report && ((f) => report(f * 0.4)) });
  const linear = trainLinear(set, {
    seed,
    balanced: (opts.prior ?? 'balanced') === 'balanced',
    onProgress: report && ((f) => report(0.4 + f * 0.6)),
  });
  const member = NetworkMember.applies(set.x[0]?.length ?? 0) ? NetworkMember.train(set, linear.classes) : null;
  return new TeamModel(forest, linear, 1, member, member ? (opts.memberWeight ?? 0) : 0);
}

/** (1 − w) · the forest and regression's average + w · the member's probabilities. */
function mixMember(team: Float64Array, member: Float64Array | undefined, weight: number): Float64Array {
  if (!member || weight === 0) return team;
  for (let i = 0; i < team.length; i++) team[i] = (1 - weight) * team[i]! + weight * member[i]!;
  return team;
}

export interface CrossValidation extends Evaluation {
  /** Out-of-fold class probabilities of each sample, in the order of `probaClasses` (for calibration). */
  proba: Float64Array[];
  probaClasses: number[];
  /** The network member's weight with the best out-of-fold balanced accuracy (0 without a member). */
  memberWeight: number;
}

/** Stratified k-fold cross-validation of trainTeamModel; every sample is predicted by a model that never saw it. */
export function crossValidateTeamModel(
  set: TrainingSet & { accepted?: number[][] },
  k: number,
  opts: TeamTrainOptions & { onFold?: (i: number) => void } = {},
): CrossValidation {
  const n = set.x.length;
  if (n < 2) throw new RangeError('cross-validation needs at least two samples');
  const folds = Math.max(2, Math.min(Math.floor(k), n));
  const assignment = stratifiedFolds(set.y, folds, opts.seed ?? 42);
  const probaClasses = [...new Set(set.y)].sort((a, b) => a - b);
  const at = new Map(probaClasses.map((c, i) => [c, i]));
  const team = Array.from({ length: n }, () => new Float64Array(probaClasses.length));
  let member: Float64Array[] | null = null;
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
    if (test.length > 0 && new Set(train.y).size > 0) {
      const model = trainTeamModel(train, {
        seed: opts.seed,
        prior: opts.prior,
        onProgress: opts.onProgress && ((fraction) => opts.onProgress!((f + fraction) / folds)),
      });
      const out = model.parts(test.map((i) => set.x[i]!));
      if (out.member) member ??= Array.from({ length: n }, () => new Float64Array(probaClasses.length));
      test.forEach((i, j) => {
        model.classes.forEach((c, m) => {
          team[i]![at.get(c)!] = out.team[j]![m]!;
          if (out.member) member![i]![at.get(c)!] = out.member[j]![m]!;
        });
      });
    }
    opts.onFold?.(f);
  }
  // The member's weight: the one whose out-of-fold labels have the best balanced accuracy (the smaller on a tie).
  let best: { weight: number; proba: Float64Array[]; evaluation: Evaluation } | null = null;
  for (const weight of member ? MEMBER_WEIGHTS : [0]) {
    const proba = team.map((p, i) => calibrate(mixMember(Float64Array.from(p), member?.[i], weight), 1));
    const predicted = proba.map((p) => topOf(probaClasses, p, 1)[0]!.class_id);
    const evaluation = scorePredictions(set.y, predicted, set.accepted);
    if (!best || evaluation.balancedAccuracy > best.evaluation.balancedAccuracy + 1e-12) best = { weight, proba, evaluation };
  }
  return { ...best!.evaluation, proba: best!.proba, probaClasses, memberWeight: best!.weight };
}

/** Smallest probability a class has before calibration (a forest vote share of 0 is not impossibility). */
const FLOOR = 1e-6;
/** No calibrated probability is certainty: a model has not seen every image. */
export const CEILING = 0.9999;

/** Temperature scaling of probabilities: p_i^(1/T) renormalised, after a floor so that no class is impossible. */
export function calibrate(p: Float64Array, temperature: number): Float64Array {
  let sum = 0;
  for (let i = 0; i < p.length; i++) {
    p[i] = Math.pow(Math.max(p[i]!, FLOOR), 1 / temperature);
    sum += p[i]!;
  }
  for (let i = 0; i < p.length; i++) p[i] = Math.min(CEILING, p[i]! / sum);
  return p;
}

/**
 * The temperature that minimises the negative log-likelihood of the true classes under the out-of-fold
 * probabilities (Guo et al. 2017's temperature scaling, on log-probabilities), by golden-section search over
 * ln T in [ln 0.25, ln 20]. The lower bound keeps a model that separated its training folds perfectly from claiming
 * certainty (p = 1) about images it has not seen.
 */
export function fitTemperature(proba: readonly Float64Array[], truth: readonly number[]): number {
  const nll = (t: number) => {
    let total = 0;
    for (let i = 0; i < proba.length; i++) {
      const q = calibrate(Float64Array.from(proba[i]!), t);
      total -= Math.log(Math.max(q[truth[i]!]!, 1e-12));
    }
    return total;
  };
  let lo = Math.log(0.25);
  let hi = Math.log(20);
  const g = (Math.sqrt(5) - 1) / 2;
  let a = hi - g * (hi - lo);
  let b = lo + g * (hi - lo);
  let fa = nll(Math.exp(a));
  let fb = nll(Math.exp(b));
  for (let it = 0; it < 40; it++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = nll(Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = nll(Math.exp(b));
    }
  }
  return Math.exp((lo + hi) / 2);
}
