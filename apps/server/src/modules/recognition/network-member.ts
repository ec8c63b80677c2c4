import type { TrainingSet } from './classifier/train-forest.ts';
import { SCORE_DIM, VECTOR_NAMES } from './vector.ts';

/**
 * The backbone's own head as a member of a team model (issue 38; docs/recognition.md, "Per-team models"). The
 * network answers 33 PWSSC classes; a team has its own. The member turns the network's scores into the team's
 * classes by P(network class | team class), counted on the team's labelled images (each image adds its score
 * vector to its class's row; rows start at a small even count and are normalised). With a uniform prior over the
 * team's classes, P(team class c | image) ∝ Σ_k P(k | c) · p_network(k | image). Measured on the frozen held-out
 * list, this keeps what the network knows where a forest or regression trained on its outputs does not (the team
 * models train on images the network was trained on, where its outputs are near-certain).
 */
export interface NetworkMemberJson {
  /** Where the network's scores start in the vector, and how many there are. */
  offset: number;
  k: number;
  classes: number[];
  /** Per team class (in `classes` order), P(network class | team class). */
  map: number[][];
}

/** Added to every cell before the rows are normalised: a team class with few images is not certain of anything. */
const PRIOR_COUNT = 0.1;
/** The score floor the vector's ln(score + 10⁻⁴) adds (vector.ts, backbone.ts). */
const SCORE_FLOOR = 1e-4;

export class NetworkMember {
  private constructor(private readonly j: NetworkMemberJson) {}

  get classes(): number[] {
    return this.j.classes;
  }

  /** Whether vectors of this length carry the network's scores (the full recognition vector). */
  static applies(dim: number): boolean {
    return dim === VECTOR_NAMES.length;
  }

  static train(set: TrainingSet, classes: number[]): NetworkMember {
    const dim = set.x[0]?.length ?? 0;
    if (!NetworkMember.applies(dim)) throw new RangeError(`vectors of ${dim} numbers carry no network scores`);
    const offset = dim - SCORE_DIM;
    const rows = new Map(classes.map((c) => [c, new Float64Array(SCORE_DIM).fill(PRIOR_COUNT)]));
    set.x.forEach((x, i) => {
      const row = rows.get(set.y[i]!);
      if (!row) return;
      scoresOf(x, offset, SCORE_DIM).forEach((p, k) => (row[k]! += p));
    });
    const map = classes.map((c) => {
      const row = rows.get(c)!;
      const sum = row.reduce((a, b) => a + b, 0);
      return [...row].map((v) => v / sum);
    });
    return new NetworkMember({ offset, k: SCORE_DIM, classes: [...classes], map });
  }

  static fromJSON(json: unknown): NetworkMember {
    const j = json as NetworkMemberJson;
    const ok =
      j &&
      Number.isInteger(j.offset) &&
      j.k === SCORE_DIM &&
      j.offset + j.k === VECTOR_NAMES.length &&
      Array.isArray(j.classes) &&
      Array.isArray(j.map) &&
      j.map.length === j.classes.length &&
      j.map.every((row) => Array.isArray(row) && row.length === j.k && row.every(Number.isFinite));
    if (!ok) throw new Error('malformed network member');
    return new NetworkMember(j);
  }

  /** Probabilities over `classes` for one vector. */
  proba(x: ArrayLike<number>): Float64Array {
    const p = scoresOf(x, this.j.offset, this.j.k);
    const out = new Float64Array(this.j.classes.length);
    let sum = 0;
    this.j.map.forEach((row, c) => {
      let s = 0;
      for (let k = 0; k < row.length; k++) s += row[k]! * p[k]!;
      out[c] = s;
      sum += s;
    });
    if (sum > 0) for (let c = 0; c < out.length; c++) out[c]! /= sum;
    else out.fill(1 / out.length);
    return out;
  }

  toJSON(): NetworkMemberJson {
    return this.j;
  }
}

/** The network's class scores from a vector's tail (stored as ln(mean score + 10⁻⁴)), renormalised. */
function scoresOf(x: ArrayLike<number>, offset: number, k: number): Float64Array {
  const p = new Float64Array(k);
  let sum = 0;
  for (let i = 0; i < k; i++) {
    p[i] = Math.max(0, Math.exp(x[offset + i]!) - SCORE_FLOOR);
    sum += p[i]!;
  }
  if (sum > 0) for (let i = 0; i < k; i++) p[i]! /= sum;
  return p;
}
