/**
 * Pixels to physical units (docs/decisions.md "Physical units"), written once for the server and the console. A
 * station's pixel size `s` is micrometres of the scene per image pixel: lengths × s (µm), areas × s² (µm²), volumes
 * × s³ (µm³, shown in mm³: × 10⁻⁹).
 */
export type PixelPower = 1 | 2 | 3;

export const UM3_PER_MM3 = 1e9;

/** A pixel measure of power 1 (length), 2 (area) or 3 (volume) in µm, µm² or mm³. */
export function toPhysical(value: number, power: PixelPower, pixelSizeUm: number): number {
  const scaled = value * pixelSizeUm ** power;
  return power === 3 ? scaled / UM3_PER_MM3 : scaled;
}

/**
 * Size classes of the ecology views (docs/ecology.md): octaves of biovolume. Class k holds objects of biovolume in
 * [2^k, 2^(k+1)) px³, so every class has the same width on a log axis (a factor of 2 in volume, 2^(1/3) ≈ 1.26 in
 * equivalent spherical diameter) and stays an octave in mm³ whatever the pixel size. Objects under 1 px³ join class
 * 0; -1 holds ROIs with no measured object (not measured yet, or nothing segmented).
 */
export const SIZE_CLASS_MAX = 63;
export const SIZE_CLASS_NONE = -1;

export function sizeClassOf(biovolumePx3: number | null | undefined): number {
  if (biovolumePx3 === null || biovolumePx3 === undefined || !(biovolumePx3 > 0) || !Number.isFinite(biovolumePx3)) {
    return SIZE_CLASS_NONE;
  }
  return Math.min(SIZE_CLASS_MAX, Math.max(0, Math.floor(Math.log2(biovolumePx3))));
}

/** The biovolume range of a size class in mm³, and the equivalent spherical diameter of its geometric middle in µm. */
export function sizeClassBounds(sizeClass: number, pixelSizeUm: number) {
  const min = toPhysical(2 ** sizeClass, 3, pixelSizeUm);
  const max = toPhysical(2 ** (sizeClass + 1), 3, pixelSizeUm);
  const mid = Math.sqrt(min * max);
  // A sphere of volume v (µm³) has diameter (6v/π)^(1/3).
  const esdUm = Math.cbrt((6 * mid * UM3_PER_MM3) / Math.PI);
  return { min_mm3: min, max_mm3: max, mid_mm3: mid, esd_um: esdUm };
}
