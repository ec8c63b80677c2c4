import { CATEGORY, type TreeNode } from '@ipp/contracts';
import { useTree } from '../api/get-tree';
import { flattenTree } from '../utils/tree';

/** The folders of a category a selection or a class can go into (empty ones too), without the source itself. */
export function useTargetFolders(
  categoryId: number | undefined,
  scope: { groupId?: number; ippId?: number; excludeCode?: string },
) {
  const tree = useTree(
    categoryId === undefined
      ? null
      : {
          category_id: categoryId,
          group_id: scope.groupId,
          ipp_id: categoryId === CATEGORY.SITE_GALLERY ? scope.ippId : undefined,
          show_empty: true,
        },
  );
  const loading = categoryId !== undefined && tree.isPending;
  const folders: (TreeNode & { roi_index_id: number })[] = loading
    ? []
    : flattenTree(tree.data ?? []).filter(
        (node): node is TreeNode & { roi_index_id: number } =>
          node.kind === 'folder' && node.roi_index_id !== null && node.code !== scope.excludeCode,
      );
  return { folders, loading };
}
