import { toPhysical } from '@ipp/contracts';
import type { Measures } from './features.ts';

export interface PhysicalMeasures {
  /** Equivalent circular diameter of the object's area, µm. */
  esd_um: number;
  area_um2: number;
  /** The ellipsoid of revolution on the major and minor axes, mm³. */
  biovolume_mm3: number;
}

/**
 * An ROI's measures in physical units for a station of `pixelSizeUm` micrometres per pixel (docs/decisions.md
 * "Physical units"): lengths × s, areas × s², volumes × s³ (µm³ → mm³: × 10⁻⁹). Null without a pixel size or measures.
 */
export function physicalOf(measures: Measures | null | undefined, pixelSizeUm: number | null): PhysicalMeasures | null {
  if (!measures || pixelSizeUm === null) return null;
  return {
    esd_um: toPhysical(measures.equivalent_diameter_px, 1, pixelSizeUm),
    area_um2: toPhysical(measures.area_px, 2, pixelSizeUm),
    biovolume_mm3: toPhysical(measures.biovolume_px3, 3, pixelSizeUm),
  };
}

/** A number for a table cell: six significant digits, '' for none. */
export const cellNumber = (v: number | null | undefined) => (v === null || v === undefined ? '' : Number(v.toPrecision(6)));
