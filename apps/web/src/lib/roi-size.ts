import { toPhysical } from '@ipp/contracts';
import type { TFunction } from 'i18next';

/**
 * An ROI's particle size as shown: its area in px² and, where its station has a pixel size, the equivalent circular
 * diameter of that area in µm (2·√(A/π) px × s), the size plankton scientists read.
 */
export function roiSize(sizePx: number, pixelSizeUm: number | null): { px: string; esdUm: string | null } {
  const px = `${sizePx} px²`;
  if (pixelSizeUm === null) return { px, esdUm: null };
  const esd = toPhysical(2 * Math.sqrt(sizePx / Math.PI), 1, pixelSizeUm);
  return { px, esdUm: esd >= 100 ? esd.toFixed(0) : esd.toPrecision(3) };
}

/** The size line of the detail views: "2345 px² (ESD 273 µm)", or the area alone without a pixel size. */
export function sizeText(roi: { size_px: number; pixel_size_um: number | null }, t: TFunction) {
  const size = roiSize(roi.size_px, roi.pixel_size_um);
  return size.esdUm === null ? size.px : t('image.sizeWithEsd', { px: size.px, um: size.esdUm });
}
