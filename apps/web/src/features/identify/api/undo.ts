import { LastActionSchema, UndoResultSchema, type LastAction, type UndoResult } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData, TRANSFER_TIMEOUT_MS } from '@/api/client';
import { identifyKeys } from './keys';
import { useIdentifyMutation } from './use-identify-mutation';

/** GET /roi/last-action: the caller's last bulk action while it can be undone, or null. */
export async function getLastAction(options: { signal?: AbortSignal } = {}): Promise<LastAction | null> {
  const data = await api.get<unknown>('/roi/last-action', { signal: options.signal, silent: true });
  return parseData(LastActionSchema.nullable(), data, { silent: true });
}

export function useLastAction(enabled: boolean) {
  return useQuery({ queryKey: identifyKeys.lastAction(), queryFn: ({ signal }) => getLastAction({ signal }), enabled });
}

/** POST /roi/undo: puts back what the last bulk action changed (as many ROIs as it changed: the long timeout). */
export async function undoAction(bulkId: number): Promise<UndoResult> {
  return parseData(
    UndoResultSchema,
    await api.post<unknown>('/roi/undo', { bulk_id: bulkId }, { timeoutMs: TRANSFER_TIMEOUT_MS }),
  );
}

export function useUndo() {
  return useIdentifyMutation(undoAction);
}
