import type { TreeNode } from '@ipp/contracts';

export type NodeMenuKey =
  | 'toolbar-add'
  | 'toolbar-remove'
  | 'attention-add'
  | 'attention-remove'
  | 'rename'
  | 'delete'
  | 'copy-class'
  | 'move-class'
  | 'to-hi';

export interface NodeMenuContext {
  /** The caller may write the category's folders (its can_create). */
  canWrite: boolean;
  /** superadmin or administrator: classes (HI) are theirs to edit. */
  isAdmin: boolean;
  /** Classes are renamed and deleted where they are made: under site images (other views show them read-only). */
  editClasses: boolean;
  /** The read-only demo account changes nothing. */
  demo: boolean;
  /** Example ROIs (-6): spec §4 "Example ROIs support no operations", not even a shortcut or a copy out. */
  readOnly?: boolean;
}

/**
 * What the context menu of a tree node offers (spec §4 image actions on classes). The server checks each again;
 * this only keeps the menu from offering what would be refused.
 */
export function nodeMenuKeys(node: TreeNode, ctx: NodeMenuContext): NodeMenuKey[] {
  if (ctx.demo || ctx.readOnly) return [];
  const keys: NodeMenuKey[] = [node.toolbar ? 'toolbar-remove' : 'toolbar-add'];
  const attention: NodeMenuKey = node.attention ? 'attention-remove' : 'attention-add';
  if (node.kind === 'folder' && node.roi_index_id !== null) {
    // Copying a class out only needs to see it; everything else needs to write here. A team-gallery folder holding
    // demo images keeps its name and marks, but nothing acts on its images (spec §6).
    if (node.demo_images) {
      if (ctx.canWrite) keys.push(attention, 'rename');
    } else if (ctx.canWrite) keys.push(attention, 'rename', 'copy-class', 'move-class', 'to-hi', 'delete');
    else keys.push('copy-class');
  } else if (node.kind === 'class' && node.class_id !== null && ctx.isAdmin) {
    keys.push(attention);
    if (ctx.editClasses && !node.system) keys.push('rename', 'delete');
  }
  return keys;
}
