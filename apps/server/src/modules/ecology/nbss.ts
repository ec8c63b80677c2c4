import { SIZE_CLASS_NONE, sizeClassBounds, toPhysical, type NbssPoint } from '@ipp/contracts';

/** Live ROIs of one size class (an octave of biovolume) and their summed biovolume, px³. */
export interface SizeRow {
  size_class: number;
  n: number;
  bv_px3: number;
}

/** Six significant digits: values span many decades (10⁻⁹ mm³ to 10³ L⁻¹), so fixed decimals would lose them. */
export const sig = (v: number) => Number(v.toPrecision(6));

/**
 * The normalized biovolume size spectrum (docs/ecology.md; Platt & Denman 1977): for each size class, the biovolume
 * of its objects per litre of water sampled, divided by the width of the class in biovolume, so NBSS(v) estimates
 * the biovolume density function and its log-log slope is comparable across class widths. Units: mm³ L⁻¹ mm⁻³
 * (= L⁻¹). Rows of one size class are summed; unmeasured ROIs (-1) have no size and are left out.
 */
export function nbssPoints(rows: readonly SizeRow[], volumeL: number, pixelSizeUm: number): NbssPoint[] {
  const bySize = new Map<number, { n: number; bv: number }>();
  for (const r of rows) {
    if (r.size_class === SIZE_CLASS_NONE || r.n <= 0) continue;
    const sum = bySize.get(r.size_class) ?? { n: 0, bv: 0 };
    sum.n += r.n;
    sum.bv += r.bv_px3;
    bySize.set(r.size_class, sum);
  }
  return [...bySize]
    .sort(([a], [b]) => a - b)
    .map(([sizeClass, sum]) => {
      const bounds = sizeClassBounds(sizeClass, pixelSizeUm);
      const biovolume = toPhysical(sum.bv, 3, pixelSizeUm);
      return {
        size_class: sizeClass,
        min_mm3: sig(bounds.min_mm3),
        max_mm3: sig(bounds.max_mm3),
        esd_um: sig(bounds.esd_um),
        count: sum.n,
        biovolume_mm3: sig(biovolume),
        nbss_per_l: sig(biovolume / volumeL / (bounds.max_mm3 - bounds.min_mm3)),
      };
    });
}

/**
 * Least-squares slope of log10 NBSS on log10 of the classes' middle biovolume (each class's geometric middle), over
 * the non-empty classes; null with fewer than three.
 */
export function nbssSlope(points: readonly NbssPoint[]): number | null {
  const xy = points
    .filter((p) => p.nbss_per_l > 0)
    .map((p) => [Math.log10(Math.sqrt(p.min_mm3 * p.max_mm3)), Math.log10(p.nbss_per_l)] as const);
  if (xy.length < 3) return null;
  const mx = xy.reduce((a, [x]) => a + x, 0) / xy.length;
  const my = xy.reduce((a, [, y]) => a + y, 0) / xy.length;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of xy) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  return sxx > 0 ? sig(sxy / sxx) : null;
}
