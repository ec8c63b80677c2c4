/**
 * Internal structure of the object (docs/recognition.md "Features"): its bright core (the object's pixels above
 * Otsu's cut of its own grey levels, see intensity.ts), grey-level layers, symmetry and skeleton (structure.ts).
 */
import { shapeOf, type Shape } from './geometry.ts';
import { largestComponent } from './segment.ts';
import { LEVELS, levelStats, skeletonStats, symmetry } from './structure.ts';
import type { SmallCrop } from './texture.ts';
import type { FeatureWriter } from './writer.ts';

/** The core's largest part compared with the object; all 0 when there is no core. */
const CORE_PART_NAMES = [
  'core_largest_share',
  'core_major_ratio',
  'core_minor_ratio',
  'core_elongation_log',
  'core_solidity',
  'core_circularity',
  'core_convexity',
  'core_feret_ratio',
  'core_offset',
  'core_thin_share',
  'core_axis_alignment',
];
/** levelStats' values, in its order. */
export const LEVEL_NAMES = LEVELS.flatMap((l) => [`level${Math.round(l * 100)}_share`, `level${Math.round(l * 100)}_parts_log`]);
/** symmetry's values, in its order. */
export const SYMMETRY_NAMES = [
  'symmetry_turn_mask',
  'symmetry_turn_grey',
  'symmetry_major_mask',
  'symmetry_major_grey',
  'symmetry_minor_mask',
  'symmetry_minor_grey',
];
/** skeletonStats' values, in its order. */
export const SKELETON_NAMES = ['skeleton_length_rel', 'skeleton_ends_log', 'skeleton_branches_log', 'skeleton_end_share'];

const ln1p = (v: number) => Math.log1p(Math.max(0, v));

/** The bright core: `core` marks its pixels on the working crop (`w` × `h`) of the object `shape`. */
export function writeCore(out: FeatureWriter, core: Uint8Array, shape: Shape, w: number, h: number): void {
  const { area, cx, cy, theta } = shape;
  const coreParts = largestComponent(core, w, h);
  let coreTotal = 0;
  for (let i = 0; i < core.length; i++) coreTotal += core[i]!;
  out.set('core_share', coreTotal / area);
  out.set('core_components_log', ln1p(coreParts.components));
  if (coreParts.area > 0) {
    const cs = shapeOf(coreParts.mask, w, h);
    out.set('core_largest_share', cs.area / area);
    out.set('core_major_ratio', cs.major / shape.major);
    out.set('core_minor_ratio', cs.minor / shape.minor);
    out.set('core_elongation_log', Math.log(cs.elongation));
    out.set('core_solidity', cs.solidity);
    out.set('core_circularity', cs.circularity);
    out.set('core_convexity', cs.convexity);
    out.set('core_feret_ratio', shape.feret > 0 ? cs.feret / shape.feret : 0);
    out.set('core_offset', Math.hypot(cs.cx - cx, cs.cy - cy) / (shape.eqDiameter / 2));
    out.set('core_thin_share', cs.thinShare);
    out.set('core_axis_alignment', Math.cos(2 * (cs.theta - theta)));
  } else {
    for (const name of CORE_PART_NAMES) out.set(name, 0);
  }
}

/**
 * Layers, symmetry and skeleton of the size-capped crop, around its centroid (cx, cy) with the major axis at
 * `theta`; `major` is the object's major axis in the crop's pixels.
 */
export function writeStructure(out: FeatureWriter, small: SmallCrop, cx: number, cy: number, theta: number, major: number) {
  out.setAll(LEVEL_NAMES, levelStats(small));
  out.setAll(SYMMETRY_NAMES, symmetry(small, cx, cy, theta));
  out.setAll(SKELETON_NAMES, skeletonStats(small, major));
}
