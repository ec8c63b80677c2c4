import { CreatedSchema, type Created, type NewFolderBody } from '@ipp/contracts';
import { api, parseData } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-index/save: a folder, or an HI class under site images (-100). Silent: the form shows the refusal. */
export async function saveFolder(body: NewFolderBody): Promise<Created> {
  return parseData(CreatedSchema, await api.post(EP.roiIndexSave, body, { silent: true }), { silent: true });
}

export function useSaveFolder() {
  return useIdentifyMutation(saveFolder);
}
