/** The texture section of the vector (docs/recognition.md "Features"): texture.ts and structure.ts measures, named. */
import { bandEnergies } from './structure.ts';
import { GLCM_NAMES, GRADIENT_BINS, LBP_BINS, type SmallCrop, glcm, gradientFeatures, lbp } from './texture.ts';
import { type FeatureWriter, seq } from './writer.ts';

export const ORIENTATION_NAMES = seq('gradient_orientation', GRADIENT_BINS);
const LBP_GROUPS = [1, 2, 4].map((radius) => ({ radius, names: seq(`lbp${radius}_`, LBP_BINS, 0) }));
const GLCM_GROUPS = [1, 3].map((distance) => ({ distance, names: GLCM_NAMES.map((n) => `glcm${distance}_${n}`) }));
export const LBP_NAMES = LBP_GROUPS.flatMap((g) => g.names);
export const GLCM_VECTOR_NAMES = GLCM_GROUPS.flatMap((g) => g.names);
/** bandEnergies' values, in its order. */
export const BAND_NAMES = ['band0_energy', 'band1_energy', 'band2_energy', 'structure_coherence'];

/** Texture of the size-capped crop; `theta` is the major axis' angle. */
export function writeTexture(out: FeatureWriter, small: SmallCrop, theta: number): void {
  const grad = gradientFeatures(small, theta);
  out.set('gradient_rel', grad.gradient);
  out.set('laplacian_rel', grad.laplacian);
  out.setAll(ORIENTATION_NAMES, grad.orientation);
  for (const { radius, names } of LBP_GROUPS) out.setAll(names, lbp(small, radius));
  for (const { distance, names } of GLCM_GROUPS) out.setAll(names, glcm(small, distance));
  out.setAll(BAND_NAMES, bandEnergies(small));
}
