import type { Action } from '@ipp/contracts';
import { ACTION } from '@ipp/contracts/constants';
import { ApartmentOutlined } from '@ant-design/icons';
import { Button, Card, Col, Drawer, Grid, Row } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { imageDetailPath } from '@/lib/monitor-paths';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { useActions } from '../api/get-actions';
import { useAdjacent } from '../api/get-adjacent';
import { useRoiSummary } from '../api/get-roi-details';
import { useRois } from '../api/get-rois';
import { AiModelsButton } from '../components/ai/ai-models-button';
import { CategoryPane } from '../components/category-pane';
import { DetailPane } from '../components/detail-pane';
import { RoiBrowser } from '../components/roi-browser';
import { useBulkAction } from '../hooks/use-bulk-action';
import { useIdentifyKeys } from '../hooks/use-identify-keys';
import { useWorkspace } from '../hooks/use-workspace';
import { demoLocked, singleActions } from '../utils/actions';
import { useSelectMatching } from '../hooks/use-select-matching';
import { useUndoLast } from '../hooks/use-undo-last';
import { KeysHelp } from '../components/keys-help';
import {
  clickSelection,
  EMPTY_SELECTION,
  focusAfterListChange,
  selectAll,
  selectedInOrder,
  type ClickModifiers,
} from '../utils/selection';

/**
 * Codes that, applied to the focused ROI alone, go on with the next one: the review keys A and R, and in-place
 * labelling (issue 25: V validates, C sets a class, D marks dubious).
 */
const ADVANCING: readonly string[] = [ACTION.APPROVE, ACTION.REJECT, ACTION.VALIDATE, ACTION.SET_CLASS, ACTION.DUBIOUS];
const NO_ACTIONS: readonly Action[] = [];

/**
 * Identify management (spec §2 /identify): categories and the class tree on the left, the filtered thumbnail
 * grid with selection and bulk actions in the centre, the focused ROI on the right.
 */
export function IdentifyPage() {
  const { t } = useTranslation();
  const ws = useWorkspace();
  const { category, setSelection, setFocusedId, focusedId } = ws;
  const rois = useRois(ws.query);
  const items = useMemo(() => rois.data?.pages.flatMap((page) => page.items) ?? [], [rois.data]);
  const order = useMemo(() => items.map((roi) => roi.id), [items]);
  const byId = useMemo(() => new Map(items.map((roi) => [roi.id, roi])), [items]);
  // The focused ROI left the list (removed, recycled, purged, reviewed): the detail pane goes on with its neighbour
  // at once, before anything asks the server about an ROI that is no longer here.
  const [seenOrder, setSeenOrder] = useState(order);
  if (seenOrder !== order) {
    setSeenOrder(order);
    const refocus = focusAfterListChange(seenOrder, order, focusedId);
    if (refocus !== focusedId) setFocusedId(refocus);
  }
  const firstPage = rois.data?.pages[0];
  const actions = useActions(category?.id ?? null, ws.reviewedType);
  const actionList = actions.data?.actions ?? NO_ACTIONS;
  const selectedIds = selectedInOrder(ws.selection, order);
  const selectionHasAi = selectedIds.some((id) => byId.get(id)?.type === 'ai');
  const categoryId = category?.id ?? 0;
  const selectionLocked = demoLocked(
    categoryId,
    selectedIds.some((id) => byId.get(id)?.is_demo_image === 1),
  );

  // The focused ROI: from the loaded pages, or fetched when previous/next went beyond them.
  const loaded = focusedId === null ? undefined : byId.get(focusedId);
  const summary = useRoiSummary(focusedId !== null && !loaded ? focusedId : null);
  const focused = loaded ?? summary.data;
  const adjacent = useAdjacent(focusedId !== null && ws.query ? { ...ws.query, roi_id: focusedId } : null);
  const previousId = adjacent.data?.previous_id ?? null;
  const nextId = adjacent.data?.next_id ?? null;

  const bulk = useBulkAction(
    {
      categoryId: category?.id ?? 0,
      code: ws.code,
      reviewedType: ws.reviewedType,
      categories: ws.categories.data ?? [],
      groupId: ws.groupId,
      ippId: ws.station?.id,
    },
    (action, roiIds) => {
      setSelection(EMPTY_SELECTION);
      // Reviewed or labelled one at a time, the user goes on with the next one.
      const alone = roiIds.length === 1 && roiIds[0] === focusedId;
      if (
        ADVANCING.includes(action.code) &&
        focusedId !== null &&
        (alone || action.code === ACTION.APPROVE || action.code === ACTION.REJECT)
      ) {
        // The next loaded ROI if there is one (the neighbours' query may still be on its way), else the server's.
        const at = order.indexOf(focusedId);
        const nextLoaded = at >= 0 ? order[at + 1] : undefined;
        if (roiIds.includes(focusedId)) setFocusedId(nextLoaded ?? nextId ?? previousId);
      }
    },
  );
  const undo = useUndoLast(!ws.session.demo);
  const navigate = useNavigate();
  const matching = useSelectMatching(ws.query, order.length, setSelection);
  const [keysHelp, setKeysHelp] = useState(false);
  // From 992 to 1199 px three panes do not fit (issue 37: 155/348/155 px at 1024): the tree moves into a drawer and
  // the grid and the detail share the width. Unmeasured (unit tests) or narrower, the panes stack as before.
  const screens = Grid.useBreakpoint();
  const compact = screens.lg === true && screens.xl !== true;
  const [treeOpen, setTreeOpen] = useState(false);
  const [similarRequest, setSimilarRequest] = useState(0);
  /** The grid's columns now (↑ and ↓ move by a row). */
  const [columns, setColumns] = useState(1);

  const orderRef = useRef(order);
  useEffect(() => {
    orderRef.current = order;
  });
  const onCellClick = useCallback(
    (id: number, mods: ClickModifiers) => {
      setSelection((current) => clickSelection(current, orderRef.current, id, mods));
      setFocusedId(id);
    },
    [setSelection, setFocusedId],
  );

  // A key does nothing where no button is offered: a demo image in the team gallery gets none (spec §6), also when it
  // is only focused, with nothing selected.
  const focusedLocked = demoLocked(categoryId, focusedId !== null && byId.get(focusedId)?.is_demo_image === 1);
  const reviewAction = (code: string) => {
    const action = actionList.find((each) => each.code === code);
    return action && focusedId !== null && !bulk.busy && !focusedLocked ? () => bulk.start(action, [focusedId]) : undefined;
  };
  // V, C, D act on the selection, or on the focused ROI when nothing is selected.
  const targets = selectedIds.length > 0 ? selectedIds : focusedId !== null ? [focusedId] : [];
  const targetsLocked = selectedIds.length > 0 ? selectionLocked : focusedLocked;
  const inPlace = (code: string) => {
    const action = actionList.find((each) => each.code === code);
    return action && targets.length > 0 && !bulk.busy && !targetsLocked
      ? () => bulk.start(action, targets, { quick: true })
      : undefined;
  };
  /** Focus `by` places along the loaded list (a row: the grid's columns), Shift extending the selection. */
  const step = (by: number, extend: boolean) => () => {
    const at = focusedId === null ? -1 : order.indexOf(focusedId);
    const id = order[at < 0 ? 0 : Math.min(order.length - 1, Math.max(0, at + by))];
    if (id === undefined) return;
    if (extend) {
      setSelection((current) =>
        clickSelection(
          current.anchor === null && focusedId !== null ? { ids: current.ids, anchor: focusedId } : current,
          order,
          id,
          {
            range: true,
            toggle: false,
          },
        ),
      );
    }
    setFocusedId(id);
  };
  const move = (by: -1 | 1) => {
    const id = by < 0 ? previousId : nextId;
    if (focusedId === null) return order.length > 0 ? () => setFocusedId(order[0]!) : undefined;
    return id === null ? undefined : () => setFocusedId(id);
  };
  useIdentifyKeys({
    arrowleft: move(-1),
    arrowright: move(1),
    'shift+arrowleft': order.length > 0 ? step(-1, true) : undefined,
    'shift+arrowright': order.length > 0 ? step(1, true) : undefined,
    arrowup: order.length > 0 ? step(-columns, false) : undefined,
    arrowdown: order.length > 0 ? step(columns, false) : undefined,
    'shift+arrowup': order.length > 0 ? step(-columns, true) : undefined,
    'shift+arrowdown': order.length > 0 ? step(columns, true) : undefined,
    space:
      focusedId === null
        ? undefined
        : () => setSelection((current) => clickSelection(current, order, focusedId, { range: false, toggle: true })),
    'mod+a': order.length > 0 ? () => setSelection(selectAll(order)) : undefined,
    'mod+shift+a': order.length > 0 ? () => void matching.run() : undefined,
    escape: selectedIds.length > 0 ? () => setSelection(EMPTY_SELECTION) : undefined,
    a: reviewAction(ACTION.APPROVE),
    r: reviewAction(ACTION.REJECT),
    v: inPlace(ACTION.VALIDATE),
    c: inPlace(ACTION.SET_CLASS),
    d: inPlace(ACTION.DUBIOUS),
    n: rois.hasNextPage && !rois.isFetchingNextPage ? () => void rois.fetchNextPage() : undefined,
    m: focused ? () => setSimilarRequest((n) => n + 1) : undefined,
    enter: focusedId !== null ? () => void navigate(imageDetailPath(focusedId)) : undefined,
    // Not while an action is running: its answer makes it the last action, and an undo then could meet it mid-way.
    u: undo.action && !bulk.busy ? () => void undo.run() : undefined,
    'mod+z': undo.action && !bulk.busy ? () => void undo.run() : undefined,
    '?': () => setKeysHelp(true),
  });

  // Stable props for the memoised detail pane: selecting in the grid does not render it again.
  const latest = useRef({ start: bulk.start, focusedId });
  useEffect(() => {
    latest.current = { start: bulk.start, focusedId };
  });
  const onDetailRun = useCallback((action: Action) => {
    const { start, focusedId: id } = latest.current;
    if (id !== null) start(action, [id]);
  }, []);
  const focusedIsDemo = loaded?.is_demo_image === 1;
  const focusedIsAi = focused?.type === 'ai';
  const detailActions = useMemo(
    () =>
      focused !== undefined && categoryId !== undefined && !demoLocked(categoryId, focusedIsDemo)
        ? singleActions(actionList, focusedIsAi)
        : NO_ACTIONS,
    [focused, categoryId, focusedIsDemo, focusedIsAi, actionList],
  );

  if (ws.categories.isPending) return <PageLoading />;
  if (ws.categories.isError || !category) {
    return <LoadFailed error={ws.categories.error} onRetry={() => void ws.categories.refetch()} />;
  }

  const runOnSelection = (action: Action) => bulk.start(action, selectedIds);

  const modelsButton = ws.isAdmin && (
    <AiModelsButton groupId={ws.groupId} needsTeam={ws.isSuperadmin && ws.groupId === undefined} readOnly={ws.session.demo} />
  );

  return (
    <Row gutter={[12, 12]} data-testid="identify-page" data-layout={compact ? 'compact' : 'panes'}>
      {compact ? (
        <Drawer
          open={treeOpen}
          onClose={() => setTreeOpen(false)}
          placement="left"
          size={360}
          title={t('identify.tree')}
          extra={modelsButton}
          data-testid="identify-tree-drawer"
        >
          <CategoryPane ws={ws} />
        </Drawer>
      ) : (
        <Col xs={24} lg={6} xxl={5}>
          <Card size="small" title={t('identify.tree')} extra={modelsButton}>
            <CategoryPane ws={ws} />
          </Card>
        </Col>
      )}
      <Col xs={24} lg={compact ? 15 : 12} xxl={13}>
        <Card
          size="small"
          title={t(`identify.category.${category.key}`)}
          extra={
            compact && (
              <Button
                size="small"
                icon={<ApartmentOutlined />}
                onClick={() => setTreeOpen(true)}
                aria-expanded={treeOpen}
                data-testid="identify-tree-open"
              >
                {t('identify.tree')}
              </Button>
            )
          }
        >
          <RoiBrowser
            ws={ws}
            items={items}
            order={order}
            total={firstPage?.total ?? 0}
            capped={firstPage?.count_capped ?? false}
            list={rois}
            actions={actions.data}
            selectedIds={selectedIds}
            selectionHasAi={selectionHasAi}
            selectionLocked={selectionLocked}
            busy={bulk.busy}
            onRun={runOnSelection}
            onCellClick={onCellClick}
            undo={undo}
            matching={matching}
            onColumns={setColumns}
            onKeysHelp={() => setKeysHelp(true)}
          />
        </Card>
      </Col>
      <Col xs={24} lg={compact ? 9 : 6}>
        <Card size="small" title={t('identify.detail.title')}>
          <DetailPane
            roi={focused}
            loading={focusedId !== null && !loaded && summary.isPending}
            previousId={previousId}
            nextId={nextId}
            onMove={setFocusedId}
            actions={detailActions}
            onRun={onDetailRun}
            busy={bulk.busy}
            reviewKeys={actionList.some((action) => action.code === ACTION.APPROVE)}
            groupId={ws.groupId}
            similarRequest={similarRequest}
          />
        </Card>
      </Col>
      {bulk.element}
      <KeysHelp open={keysHelp} onClose={() => setKeysHelp(false)} />
    </Row>
  );
}
