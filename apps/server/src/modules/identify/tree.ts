import { LABEL_KINDS, type LabelKind, type TreeNode } from '@ipp/contracts';
import type { ClassCountRow } from './counts.repository.ts';
import type { FolderRow } from './folders.repository.ts';
import { codes } from './scope.ts';

interface ClassRow {
  id: number;
  name: string;
  system: number;
  attention: number;
  /** Hidden from the team's plain users (they never get it; administrators see it marked). */
  hidden?: boolean;
}

export interface TreeInput {
  category: number;
  /** The classes the caller may see (classes.ts classesVisibleTo): a class left out gets no node. */
  classes: readonly ClassRow[];
  showEmpty: boolean;
  /** Codes the caller has toolbar shortcuts for in this category. */
  toolbar: ReadonlySet<string>;
  folders?: readonly FolderRow[];
  /** Folders holding demo images (team gallery): marked, since no class operation applies to them. */
  demoFolders?: ReadonlySet<number>;
  groupCounts?: readonly ClassCountRow[];
  stations?: readonly { id: number; dev_id: string; site_name: string }[];
  stationCounts?: readonly { ipp_id: number; class_key: number; n: number }[];
  subsetCounts?: readonly { class_key: number; n: number }[];
}

/** The title of the "not classified" node: it follows the naming rule like every class. */
export const UNCLASSIFIED = '000Unclassified';

const node = (input: TreeInput, part: Omit<TreeNode, 'toolbar' | 'children'> & { children?: TreeNode[] }): TreeNode => ({
  children: [],
  ...part,
  toolbar: input.toolbar.has(part.code),
});

/** Class nodes from per-class counts; every class (and "not classified") when empty ones are shown. */
function classNodes(input: TreeInput, perClass: Map<number, number>, code: (classKey: number) => string): TreeNode[] {
  const shown = input.classes.filter((c) => input.showEmpty || (perClass.get(c.id) ?? 0) > 0);
  const nodes = shown.map((c) =>
    node(input, {
      code: code(c.id),
      title: c.name,
      count: perClass.get(c.id) ?? 0,
      roi_index_id: null,
      class_id: c.id,
      attention: c.attention === 1,
      system: c.system === 1,
      ...(c.hidden ? { hidden: true } : {}),
      kind: 'class',
    }),
  );
  const none = perClass.get(0) ?? 0;
  if (none > 0 || input.showEmpty) {
    nodes.push(
      node(input, {
        code: code(0),
        title: UNCLASSIFIED,
        count: none,
        roi_index_id: null,
        class_id: null,
        attention: false,
        system: true,
        kind: 'class',
      }),
    );
  }
  return nodes;
}

const sum = (nodes: TreeNode[]) => nodes.reduce((a, n) => a + n.count, 0);

/** The gallery/class tree of one category (spec §2 /identify, left pane). */
export function buildTree(input: TreeInput): TreeNode[] {
  if (input.folders) {
    // Folders are things people made (or galleries filled): shown even when empty, or a new folder could never be
    // chosen as a target. Only class nodes hide when empty.
    return input.folders.map((f) =>
      node(input, {
        code: codes.folder(f.id),
        title: f.title,
        count: Number(f.n),
        roi_index_id: f.id,
        class_id: null,
        attention: f.attention === 1,
        system: false,
        ...(input.demoFolders?.has(f.id) ? { demo_images: true } : {}),
        category_id: f.category_id,
        group_id: f.group_id,
        ipp_id: f.ipp_id,
        kind: 'folder',
      }),
    );
  }
  if (input.groupCounts) {
    return (['ai', 'hi', 'ui'] as LabelKind[]).map((kind) => {
      const perClass = new Map<number, number>();
      for (const r of input.groupCounts!)
        if (r.kind === LABEL_KINDS[kind]) perClass.set(r.class_key, (perClass.get(r.class_key) ?? 0) + r.n);
      // Unidentified images have no class: "show empty classes" lists no class under UI, only what is there.
      const children = classNodes(kind === 'ui' ? { ...input, showEmpty: false } : input, perClass, (key) =>
        codes.groupClass(kind, key),
      );
      return node(input, {
        code: codes.group(kind),
        title: kind.toUpperCase(),
        // What the nodes under it add up to, as a station's node: a plain user's count leaves out the classes their
        // team hides (docs/decisions.md "Issue 37: a hidden class is hidden everywhere a plain user reads classes").
        count: sum(children),
        roi_index_id: null,
        class_id: null,
        attention: false,
        system: true,
        kind: 'group',
        children,
      });
    });
  }
  if (input.stations) {
    return input.stations.map((s) => {
      const perClass = new Map<number, number>();
      for (const r of input.stationCounts ?? []) if (r.ipp_id === s.id) perClass.set(r.class_key, r.n);
      const children = classNodes(input, perClass, (key) => codes.stationClass(s.id, key));
      return node(input, {
        code: codes.station(s.id),
        title: s.site_name ? `${s.dev_id} ${s.site_name}` : s.dev_id,
        count: sum(children),
        roi_index_id: null,
        class_id: null,
        attention: false,
        system: true,
        kind: 'group',
        children,
      });
    });
  }
  const perClass = new Map((input.subsetCounts ?? []).map((r) => [r.class_key, r.n]));
  return classNodes(input, perClass, codes.cls);
}
