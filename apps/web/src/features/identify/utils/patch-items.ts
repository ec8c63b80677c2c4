import { ACTION } from '@ipp/contracts/constants';
import type { BulkActionBody, RoiItem } from '@ipp/contracts';

/**
 * What an in-place label action (issue 25) does to the ROIs listed, as the server does it (bulk.service.ts), so the
 * thumbnails can say it as soon as the action is answered, before the lists are fetched again: 81 makes a prediction
 * a human label, 82 gives the chosen class as a human label, 83 sends the ROI to review. Other codes: unchanged.
 */
export function patchItem(item: RoiItem, body: Pick<BulkActionBody, 'type' | 'target_id'>, className?: string): RoiItem {
  switch (body.type) {
    case ACTION.VALIDATE:
      return item.type === 'ai' ? { ...item, type: 'hi', hi: 1 } : item;
    case ACTION.SET_CLASS:
      return body.target_id === undefined
        ? item
        : { ...item, type: 'hi', hi: 1, class_id: body.target_id, class_name: className ?? item.class_name };
    case ACTION.DUBIOUS:
      return { ...item, review_status: 'pending' };
    default:
      return item;
  }
}

export const PATCHED_CODES: readonly string[] = [ACTION.VALIDATE, ACTION.SET_CLASS, ACTION.DUBIOUS];
