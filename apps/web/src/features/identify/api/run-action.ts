import { BulkResultSchema, type BulkActionBody, type BulkResult } from '@ipp/contracts';
import { api, parseData, TRANSFER_TIMEOUT_MS } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';

/** POST /roi/save-move: one bulk action on a selection, in one transaction (docs/actions.md). Refusals are toasted. */
export async function runAction(body: BulkActionBody): Promise<BulkResult> {
  // Up to 10,000 ROIs in one transaction: the long timeout, not the 50 s one.
  return parseData(BulkResultSchema, await api.post<unknown>('/roi/save-move', body, { timeoutMs: TRANSFER_TIMEOUT_MS }));
}

export function useRunAction() {
  return useIdentifyMutation(runAction);
}
