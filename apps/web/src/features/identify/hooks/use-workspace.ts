import { CATEGORY } from '@ipp/contracts';
import { useState } from 'react';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { useSession } from '@/hooks/use-session';
import { viewerTz } from '@/lib/timezone';
import { useCategories } from '../api/get-categories';
import { useTree } from '../api/get-tree';
import { DEFAULT_FILTERS, listQuery, needsStation, takesStation, type Filters } from '../utils/list-query';
import { EMPTY_SELECTION, type Selection } from '../utils/selection';
import { findNode, flattenTree } from '../utils/tree';

/**
 * Where the identify workspace is looking: team (superadmin), category, station, tree node and filters, and what
 * follows from them (the tree, the list query). The selection and the focused ROI belong to one list: they are
 * dropped whenever the list changes.
 */
export function useWorkspace() {
  const session = useSession();
  const isSuperadmin = session.role === 'superadmin';
  const isAdmin = isSuperadmin || session.role === 'administrator';
  const [groupId, setGroupId] = useState<number | undefined>(undefined);
  const [chosenCategory, setChosenCategory] = useState<number | null>(null);
  /** undefined: the first station; null: none (the IPP gallery of every station). */
  const [chosenStation, setChosenStation] = useState<number | null | undefined>(undefined);
  const [code, setCode] = useState<string | undefined>(undefined);
  const [showEmpty, setShowEmpty] = useState(false);
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const [tz] = useState(() => viewerTz());

  const categories = useCategories(groupId);
  const categoryList = categories.data ?? [];
  const category = categoryList.find((c) => c.id === chosenCategory) ?? categoryList[0];
  const ipps = useIpps({ page: 1, limit: ALL_IPPS_LIMIT, group_id: groupId });
  const stations = ipps.data?.items ?? [];
  const station =
    chosenStation === null ? undefined : chosenStation === undefined ? stations[0] : stations.find((s) => s.id === chosenStation);

  const categoryId = category?.id;
  const stationMissing = categoryId !== undefined && needsStation(categoryId) && station === undefined;
  const tree = useTree(
    categoryId === undefined || stationMissing
      ? null
      : {
          category_id: categoryId,
          ipp_id: takesStation(categoryId) ? station?.id : undefined,
          group_id: groupId,
          show_empty: showEmpty,
          // The review view's counts are of the ROIs its list shows (waiting or reviewed); part of the query key.
          reviewed_type: categoryId === CATEGORY.REVIEW ? filters.reviewed : undefined,
        },
  );
  const treeNodes = tree.data ?? [];
  const node = findNode(treeNodes, code);
  // The node went away (deleted, moved, emptied while empty classes are hidden): back to the whole category.
  if (code !== undefined && tree.isSuccess && node === undefined) setCode(undefined);
  // A folder just made is selected once the tree shows it (its node code is the tree's to give).
  const [pendingFolder, setPendingFolder] = useState<number | null>(null);
  if (pendingFolder !== null && tree.isSuccess && !tree.isFetching) {
    const made = flattenTree(treeNodes).find((each) => each.roi_index_id === pendingFolder);
    setPendingFolder(null);
    if (made) setCode(made.code);
  }

  const query = categoryId === undefined ? null : listQuery({ categoryId, code, ippId: station?.id, groupId }, filters, tz);

  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const listKey = JSON.stringify(query);
  const [seenListKey, setSeenListKey] = useState(listKey);
  if (seenListKey !== listKey) {
    setSeenListKey(listKey);
    setSelection(EMPTY_SELECTION);
    setFocusedId(null);
  }

  return {
    session,
    isSuperadmin,
    isAdmin,
    groupId,
    selectTeam: (id: number | undefined) => {
      setGroupId(id);
      setChosenStation(undefined);
      setCode(undefined);
    },
    categories,
    category,
    selectCategory: (id: number) => {
      setChosenCategory(id);
      setCode(undefined);
      // The review queue opens least certain first (the labels the model is least sure of); leaving it, the
      // lists go back to newest first. A sort chosen inside either stays until the next switch.
      if ((id === CATEGORY.REVIEW) !== (categoryId === CATEGORY.REVIEW))
        setFilters((current) => ({
          ...current,
          ...(id === CATEGORY.REVIEW
            ? { sort: 'confidence' as const, order: 'asc' as const }
            : { sort: DEFAULT_FILTERS.sort, order: DEFAULT_FILTERS.order }),
        }));
    },
    ipps,
    stations,
    station,
    stationMissing,
    selectStation: (id: number | null) => {
      setChosenStation(id);
      setCode(undefined);
    },
    tree,
    treeNodes,
    code,
    node,
    selectNode: setCode,
    /** Selects a created folder (by id) or HI class (by the code the server answered). */
    selectCreated: (created: { roi_index_id: number | null; code: string }) => {
      if (created.roi_index_id !== null) setPendingFolder(created.roi_index_id);
      else setCode(created.code);
    },
    /** A toolbar shortcut: its category, then its node. */
    goTo: (categoryIdOfShortcut: number, shortcutCode: string) => {
      setChosenCategory(categoryIdOfShortcut);
      setCode(shortcutCode);
    },
    showEmpty,
    setShowEmpty,
    filters,
    setFilters,
    reviewedType: categoryId === CATEGORY.REVIEW ? filters.reviewed : undefined,
    tz,
    query,
    selection,
    setSelection,
    focusedId,
    setFocusedId,
  };
}

export type Workspace = ReturnType<typeof useWorkspace>;
