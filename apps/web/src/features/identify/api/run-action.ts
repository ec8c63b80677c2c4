import { BulkResultSchema, UNDO_WINDOW_MS, type BulkActionBody, type BulkResult, type LastAction } from '@ipp/contracts';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api, parseData, TRANSFER_TIMEOUT_MS } from '@/api/client';
import { patchItem, PATCHED_CODES } from '../utils/patch-items';
import type { RoiPageWithTotal } from './get-rois';
import { identifyKey, identifyKeys } from './keys';
import { refreshAfterLabelChange } from './label-change-keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi/save-move: one bulk action on a selection, in one transaction (docs/actions.md). Refusals are toasted. */
export async function runAction(body: BulkActionBody): Promise<BulkResult> {
  // Up to 10,000 ROIs in one transaction: the long timeout, not the 50 s one.
  return parseData(BulkResultSchema, await api.post(EP.roiSaveMove, body, { timeoutMs: TRANSFER_TIMEOUT_MS }));
}

export interface RunActionVariables {
  body: BulkActionBody;
  /** The chosen class's title (82), for the thumbnails until the lists come again. */
  className?: string;
}

/**
 * Runs an action, then refreshes everything it may have changed (labelChangeKeys). An in-place label action first
 * patches the loaded thumbnails as the server changed them and is answered at once (issue 25: each key answered
 * within 300 ms), while the lists and counts are fetched again behind it.
 */
export function useRunAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body }: RunActionVariables) => runAction(body),
    onSuccess: (result, { body, className }) => {
      // The action is now the caller's last: U undoes this one, not the one the cache held before.
      if (result.bulk_id !== null) {
        const now = Date.now();
        queryClient.setQueryData<LastAction>(identifyKeys.lastAction(), {
          bulk_id: result.bulk_id,
          code: body.type,
          category_id: body.category_id,
          affected: result.affected,
          created_at: now,
          expires_at: now + UNDO_WINDOW_MS,
        });
      }
      const refresh = () => refreshAfterLabelChange(queryClient);
      if (PATCHED_CODES.includes(body.type)) {
        const ids = new Set(body.roi_ids);
        queryClient.setQueriesData<InfiniteData<RoiPageWithTotal>>({ queryKey: [...identifyKey, 'rois'] }, (data) =>
          data
            ? {
                ...data,
                pages: data.pages.map((page) => ({
                  ...page,
                  items: page.items.map((item) => (ids.has(item.id) ? patchItem(item, body, className) : item)),
                })),
              }
            : data,
        );
        // The thumbnails already say it: the action is answered now, the lists and counts follow.
        void refresh();
        return;
      }
      return refresh();
    },
  });
}
