import { ToolbarItemSchema, type ToolbarItem } from '@ipp/contracts';
import { api, parseData } from '@/api/client';
import { useIdentifyMutation } from './use-identify-mutation';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi-index/add-tool-bar: a shortcut to a tree node (adding one twice keeps one). */
export async function addToolbar(body: { category_id: number; code: string; title: string }): Promise<ToolbarItem> {
  return parseData(ToolbarItemSchema, await api.post(EP.roiIndexAddToolBar, body));
}

export function useAddToolbar() {
  return useIdentifyMutation(addToolbar);
}
