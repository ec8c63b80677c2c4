import { LastActionSchema, UndoResultSchema, type LastAction, type UndoResult } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData, TRANSFER_TIMEOUT_MS } from '@/api/client';
import { identifyKey, identifyKeys } from './keys';
import { refreshAfterLabelChange } from './label-change-keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/last-action: the caller's last bulk action while it can be undone, or null. */
export async function getLastAction(options: { signal?: AbortSignal } = {}): Promise<LastAction | null> {
  const data = await api.get(EP.roiLastAction, { signal: options.signal, silent: true });
  return parseData(LastActionSchema.nullable(), data, { silent: true });
}

export function useLastAction(enabled: boolean) {
  return useQuery({ queryKey: identifyKeys.lastAction(), queryFn: ({ signal }) => getLastAction({ signal }), enabled });
}

/** POST /roi/undo: puts back what the last bulk action changed (as many ROIs as it changed: the long timeout). */
export async function undoAction(bulkId: number): Promise<UndoResult> {
  return parseData(UndoResultSchema, await api.post(EP.roiUndo, { bulk_id: bulkId }, { timeoutMs: TRANSFER_TIMEOUT_MS }));
}

/**
 * The undo is answered once the image lists are fetched again (what each ROI went back to is theirs to say); the
 * trees, counts and overview pages follow behind it.
 */
export function useUndo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: undoAction,
    onSuccess: async () => {
      queryClient.setQueryData(identifyKeys.lastAction(), null);
      const lists = [...identifyKey, 'rois'];
      const isList = (key: readonly unknown[]) => key[0] === lists[0] && key[1] === lists[1];
      void refreshAfterLabelChange(queryClient, (query) => isList(query.queryKey));
      await queryClient.invalidateQueries({ queryKey: lists });
    },
  });
}
