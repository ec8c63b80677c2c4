import { OperateResultSchema, type OperateFolderBody, type OperateResult } from '@ipp/contracts';
import { api, parseData, TRANSFER_TIMEOUT_MS } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /folder/operate-folder: a whole class copied or moved to another category, removed, or its images to HI. */
export async function operateFolder(body: OperateFolderBody): Promise<OperateResult> {
  const data = await api.post(EP.folderOperateFolder, body, { timeoutMs: TRANSFER_TIMEOUT_MS });
  return parseData(OperateResultSchema, data);
}

export function useOperateFolder() {
  return useIdentifyMutation(operateFolder);
}
