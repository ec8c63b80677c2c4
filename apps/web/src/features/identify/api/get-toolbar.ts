import { ToolbarItemSchema, type ToolbarItem } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

const ToolbarSchema = ToolbarItemSchema.array();

/** GET /roi-index/tool-bar: the caller's shortcuts to tree nodes. */
export async function getToolbar(options: { signal?: AbortSignal } = {}): Promise<ToolbarItem[]> {
  return parseData(ToolbarSchema, await api.get(EP.roiIndexToolBar, { signal: options.signal }));
}

export function useToolbar() {
  return useQuery({ queryKey: identifyKeys.toolbar(), queryFn: ({ signal }) => getToolbar({ signal }) });
}
