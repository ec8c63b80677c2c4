import type { TreeNode } from '@ipp/contracts';

/** Every node of a tree, parents before their children. */
export function flattenTree(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((node) => [node, ...flattenTree(node.children)]);
}

export function findNode(nodes: readonly TreeNode[], code: string | undefined): TreeNode | undefined {
  if (code === undefined) return undefined;
  return flattenTree(nodes).find((node) => node.code === code);
}
