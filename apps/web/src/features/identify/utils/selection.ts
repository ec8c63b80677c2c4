/** The selected ROIs of the grid and the one a Shift-click range starts from. */
export interface Selection {
  ids: ReadonlySet<number>;
  anchor: number | null;
  /**
   * Made by "select all matching" (issue 25): it holds ROIs beyond the loaded pages, which count and are sent too.
   * Otherwise only the loaded ROIs count (one that left the list is dropped).
   */
  matching?: boolean;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

export interface ClickModifiers {
  /** Shift: the range from the anchor to this ROI. */
  range: boolean;
  /** Ctrl or ⌘ (or the cell's checkbox): add or remove this ROI only. */
  toggle: boolean;
}

/**
 * One click on a grid cell, as file managers do it: a plain click selects that ROI alone; Ctrl/⌘ toggles it;
 * Shift selects the range from the anchor (added to the selection when Ctrl/⌘ is held too). `order` is the
 * grid's order of ROI ids.
 */
export function clickSelection(current: Selection, order: readonly number[], id: number, mods: ClickModifiers): Selection {
  if (mods.range && current.anchor !== null) {
    const from = order.indexOf(current.anchor);
    const to = order.indexOf(id);
    if (from !== -1 && to !== -1) {
      const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
      const ids = new Set(mods.toggle ? current.ids : []);
      for (const each of range) ids.add(each);
      return { ids, anchor: current.anchor, matching: mods.toggle && current.matching };
    }
  }
  if (mods.toggle) {
    const ids = new Set(current.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id, matching: current.matching };
  }
  return { ids: new Set([id]), anchor: id };
}

/** Every ROI shown (the loaded pages). */
export function selectAll(order: readonly number[]): Selection {
  return { ids: new Set(order), anchor: order[0] ?? null };
}

/** Every ROI the list query matches, loaded or not (the server's ids, in the list's order). */
export function selectMatching(ids: readonly number[]): Selection {
  return { ids: new Set(ids), anchor: ids[0] ?? null, matching: true };
}

/**
 * The selected ids in grid order (the order the user sees, and the one sent); a "matching" selection's ROIs beyond
 * the loaded pages follow, in the server's order.
 */
export function selectedInOrder(selection: Selection, order: readonly number[]): number[] {
  const loaded = order.filter((id) => selection.ids.has(id));
  if (!selection.matching || loaded.length === selection.ids.size) return loaded;
  const shown = new Set(order);
  return [...loaded, ...[...selection.ids].filter((id) => !shown.has(id))];
}

/**
 * The focused ROI after the list changed under it (removed from a gallery, recycled, purged, approved): if it was
 * in the list and is gone now, the detail pane goes on with the ROI that followed it (or preceded it, at the end)
 * among those still listed, or shows none; otherwise the focus stays (it may be an ROI reached beyond the loaded
 * pages, or from the similar-images drawer).
 */
export function focusAfterListChange(
  previousOrder: readonly number[],
  order: readonly number[],
  focusedId: number | null,
): number | null {
  if (focusedId === null || order.includes(focusedId)) return focusedId;
  const at = previousOrder.indexOf(focusedId);
  if (at < 0) return focusedId;
  const still = new Set(order);
  const after = previousOrder.slice(at + 1).find((id) => still.has(id));
  if (after !== undefined) return after;
  const before = previousOrder
    .slice(0, at)
    .reverse()
    .find((id) => still.has(id));
  return before ?? null;
}
