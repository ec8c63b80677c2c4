import type { RoiItem } from '@ipp/contracts';

/** Thumbnail sizes the zoom slider offers, px (issue 25); 120 was the only one before. */
export const CELL_SIZES = { min: 80, max: 240, step: 20, default: 120 } as const;

/** What the thumbnail's mark says of its label: validated by a person, predicted by a model, dubious, or none. */
export type LabelMark = 'validated' | 'predicted' | 'dubious' | 'none';

export function labelMark(roi: Pick<RoiItem, 'type' | 'review_status'>): LabelMark {
  if (roi.review_status === 'pending' || roi.review_status === 'rejected') return 'dubious';
  if (roi.type === 'hi') return 'validated';
  if (roi.type === 'ai') return 'predicted';
  return 'none';
}

/** A confidence as the thumbnail prints it: whole percent, never "100 %" for a model's guess. */
export function shortConfidence(p: number): string {
  const pct = Math.floor(p * 100);
  return `${Math.min(99, Math.max(0, pct))}%`;
}

/** "Top 3" on hover: each class the model weighed with its probability. */
export function topText(top: RoiItem['ai_top'], nameOf: (classId: number) => string): string {
  return top.map((entry) => `${nameOf(entry.class_id)} ${shortConfidence(entry.p)}`).join(' · ');
}

const NICE_UM = [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];

/**
 * The µm scale bar of a thumbnail shown contained in a `box` px square: the longest round length that takes at most
 * 40% of the box's width, with its width on screen; none where the station's pixel size is unknown.
 */
export function scaleBar(
  roi: Pick<RoiItem, 'width' | 'height' | 'pixel_size_um'>,
  box: number,
): { um: number; px: number } | null {
  if (!roi.pixel_size_um || roi.width <= 0 || roi.height <= 0) return null;
  const screenPxPerImagePx = Math.min(box / roi.width, box / roi.height);
  const pxPerUm = screenPxPerImagePx / roi.pixel_size_um;
  let best: { um: number; px: number } | null = null;
  for (const um of NICE_UM) {
    const px = um * pxPerUm;
    if (px <= box * 0.4) best = { um, px };
  }
  return best && best.px >= 8 ? best : null;
}
