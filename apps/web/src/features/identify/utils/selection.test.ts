import { describe, expect, it } from 'vitest';
import {
  clickSelection,
  EMPTY_SELECTION,
  focusAfterListChange,
  selectAll,
  selectedInOrder,
  selectMatching,
  type Selection,
} from './selection';

const ORDER = [10, 11, 12, 13, 14, 15];
const plain = { range: false, toggle: false };
const shift = { range: true, toggle: false };
const ctrl = { range: false, toggle: true };
const ids = (selection: Selection) => [...selection.ids].sort((a, b) => a - b);

describe('grid selection', () => {
  it('selects one ROI on a plain click, replacing the selection', () => {
    const first = clickSelection(EMPTY_SELECTION, ORDER, 11, plain);
    expect(ids(first)).toEqual([11]);
    const second = clickSelection(first, ORDER, 14, plain);
    expect(ids(second)).toEqual([14]);
    expect(second.anchor).toBe(14);
  });

  it('selects the range from the anchor on Shift-click, in either direction, keeping the anchor', () => {
    const anchored = clickSelection(EMPTY_SELECTION, ORDER, 12, plain);
    const down = clickSelection(anchored, ORDER, 14, shift);
    expect(ids(down)).toEqual([12, 13, 14]);
    expect(down.anchor).toBe(12);
    // A second Shift-click re-draws the range from the same anchor.
    const up = clickSelection(down, ORDER, 10, shift);
    expect(ids(up)).toEqual([10, 11, 12]);
  });

  it('toggles one ROI on Ctrl/⌘-click and moves the anchor there', () => {
    let selection = clickSelection(EMPTY_SELECTION, ORDER, 10, plain);
    selection = clickSelection(selection, ORDER, 13, ctrl);
    expect(ids(selection)).toEqual([10, 13]);
    selection = clickSelection(selection, ORDER, 10, ctrl);
    expect(ids(selection)).toEqual([13]);
    expect(selection.anchor).toBe(10);
  });

  it('adds a range to the selection on Ctrl+Shift-click', () => {
    let selection = clickSelection(EMPTY_SELECTION, ORDER, 10, plain);
    selection = clickSelection(selection, ORDER, 13, ctrl);
    selection = clickSelection(selection, ORDER, 15, { range: true, toggle: true });
    expect(ids(selection)).toEqual([10, 13, 14, 15]);
  });

  it('treats Shift-click without an anchor (or an anchor no longer shown) as a plain click', () => {
    expect(ids(clickSelection(EMPTY_SELECTION, ORDER, 12, shift))).toEqual([12]);
    const stale: Selection = { ids: new Set([99]), anchor: 99 };
    expect(ids(clickSelection(stale, ORDER, 12, shift))).toEqual([12]);
  });

  it('selects every shown ROI and reports the selection in grid order without ROIs no longer shown', () => {
    expect(ids(selectAll(ORDER))).toEqual(ORDER);
    const selection: Selection = { ids: new Set([14, 99, 10]), anchor: 14 };
    expect(selectedInOrder(selection, ORDER)).toEqual([10, 14]);
  });
});

describe('focus after the list changed', () => {
  it('goes on with the next listed ROI when the focused one left the list, the previous at the end, none when empty', () => {
    expect(focusAfterListChange([1, 2, 3, 4], [1, 3, 4], 2)).toBe(3);
    expect(focusAfterListChange([1, 2, 3, 4], [1, 4], 2)).toBe(4);
    expect(focusAfterListChange([1, 2, 3], [1, 2], 3)).toBe(2);
    expect(focusAfterListChange([1], [], 1)).toBeNull();
  });

  it('keeps a focus that is still listed, none, or one that was never in the loaded pages', () => {
    expect(focusAfterListChange([1, 2, 3], [1, 2, 3], 2)).toBe(2);
    expect(focusAfterListChange([1, 2], [1], null)).toBeNull();
    expect(focusAfterListChange([1, 2], [1, 2], 99)).toBe(99);
  });
});

describe('select all matching', () => {
  it('keeps the ROIs beyond the loaded pages after the loaded ones, and toggling one keeps the rest', () => {
    const matching = selectMatching([10, 11, 12, 99, 98]);
    expect(selectedInOrder(matching, ORDER)).toEqual([10, 11, 12, 99, 98]);
    const toggled = clickSelection(matching, ORDER, 11, { range: false, toggle: true });
    expect(selectedInOrder(toggled, ORDER)).toEqual([10, 12, 99, 98]);
    // A plain click starts a selection of the loaded list again.
    expect(selectedInOrder(clickSelection(matching, ORDER, 13, plain), ORDER)).toEqual([13]);
    // An ordinary selection drops an ROI that left the list.
    expect(selectedInOrder({ ids: new Set([10, 99]), anchor: 10 }, ORDER)).toEqual([10]);
  });
});
