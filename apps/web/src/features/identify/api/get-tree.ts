import { TreeNodeSchema, type TreeNode } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { cleanQuery, identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

const TreeSchema = TreeNodeSchema.array();

export interface TreeParams {
  category_id: number;
  ipp_id?: number;
  group_id?: number;
  show_empty?: boolean;
  /** Review queue (-7) only: 1 counts the reviewed ROIs, 0 the waiting ones (the list's reviewed_type). */
  reviewed_type?: 0 | 1;
}

/** GET /roi-index/index: the class (folder) tree of one category with counts. */
export async function getTree(params: TreeParams, options: { signal?: AbortSignal } = {}): Promise<TreeNode[]> {
  const { show_empty, ...rest } = params;
  const query = cleanQuery({ ...rest, show_empty: show_empty ? 1 : undefined });
  return parseData(TreeSchema, await api.get(EP.roiIndexIndex, { query, signal: options.signal }));
}

export function treeQueryOptions(params: TreeParams) {
  return queryOptions({ queryKey: identifyKeys.tree(params), queryFn: ({ signal }) => getTree(params, { signal }) });
}

export function useTree(params: TreeParams | null) {
  return useQuery({
    ...treeQueryOptions(params ?? { category_id: 0 }),
    enabled: params !== null,
  });
}
