import { readFileSync } from 'node:fs';
import { VECTOR_VERSION } from './vector.ts';

/**
 * The similarity descriptor (docs/recognition.md "Similarity"): the feature vector standardised, projected on 32
 * principal components and quantised to int8 with one common step, so squared Euclidean distance between
 * descriptors approximates distance in the standardised feature space. The basis (means, scales, components) was
 * fitted once by `npm run fit:descriptor` on a reference image set and is kept in descriptor-basis.json.
 */
export const SIM_DIMS = 32;

interface Basis {
  feature_version: number;
  mean: number[];
  scale: number[];
  /** SIM_DIMS rows of feature-count weights. */
  components: number[][];
  /** Projection units per int8 step. */
  step: number;
}

const BASIS_URL = new URL('./descriptor-basis.json', import.meta.url);
let basis: Basis | null = null;

function loadBasis(): Basis {
  if (basis) return basis;
  const parsed = JSON.parse(readFileSync(BASIS_URL, 'utf8')) as Basis;
  if (parsed.feature_version !== VECTOR_VERSION) {
    throw new Error(
      `descriptor-basis.json was fitted for feature version ${parsed.feature_version}, features are ${VECTOR_VERSION}: run npm run fit:descriptor`,
    );
  }
  basis = parsed;
  return basis;
}

/**
 * Standardised values are clipped to ±5: an image unlike the fitting set (another instrument, a drawn shape) must
 * not push every dimension to the int8 limit, where all such images would look alike.
 */
export const clampZ = (z: number) => (Number.isFinite(z) ? Math.max(-5, Math.min(5, z)) : 0);

export function descriptorOf(values: ArrayLike<number>): Int8Array {
  const b = loadBasis();
  const z = new Float64Array(b.mean.length);
  for (let i = 0; i < z.length; i++) z[i] = clampZ(((values[i] ?? 0) - b.mean[i]!) / b.scale[i]!);
  const out = new Int8Array(SIM_DIMS);
  for (let j = 0; j < SIM_DIMS; j++) {
    const row = b.components[j]!;
    let p = 0;
    for (let i = 0; i < z.length; i++) p += row[i]! * z[i]!;
    out[j] = Math.max(-127, Math.min(127, Math.round(p / b.step)));
  }
  return out;
}
