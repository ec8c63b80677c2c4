import { CATEGORY, type Action, type Actions, type LastAction, type RoiItem } from '@ipp/contracts';
import { App, Button, Empty, Flex, Slider, Spin, Typography, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useFormatCount } from '@/hooks/use-format-count';
import { useReBin } from '../api/re-bin';
import type { Workspace } from '../hooks/use-workspace';
import { IMPORT_CATEGORIES } from '../utils/actions';
import { EMPTY_SELECTION, selectAll, type ClickModifiers } from '../utils/selection';
import { QuestionCircleOutlined, ZoomInOutlined } from '@ant-design/icons';
import { useCellSize } from '../hooks/use-cell-size';
import { CELL_SIZES } from '../utils/thumbnail';
import { ActionBar } from './action-bar';
import { UndoButton } from './undo-button';
import { ExportButton } from './export-button';
import { ImportButton } from './import-button';
import { FiltersBar } from './filters-bar';
import { RoiGrid } from './roi-grid';

interface RoiBrowserProps {
  ws: Workspace;
  items: readonly RoiItem[];
  order: readonly number[];
  total: number;
  capped: boolean;
  list: {
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    refetch: () => unknown;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => unknown;
  };
  actions: Actions | undefined;
  selectedIds: number[];
  selectionHasAi: boolean;
  /** Demo images are selected in the team gallery: no action is offered (spec §6). */
  selectionLocked: boolean;
  busy: boolean;
  onRun: (action: Action) => void;
  onCellClick: (id: number, mods: ClickModifiers) => void;
  /** "Select all matching" (also Ctrl/⌘+Shift+A). */
  matching: { run: () => Promise<void>; busy: boolean };
  /** The caller's last bulk action and its undo. */
  undo: { action: LastAction | null; busy: boolean; run: () => Promise<void> };
  onKeysHelp: () => void;
  onColumns?: (columns: number) => void;
}

/** The centre pane: filters, totals and selection, the bulk actions, and the thumbnail grid. */
export function RoiBrowser(props: RoiBrowserProps) {
  const {
    ws,
    items,
    order,
    total,
    capped,
    list,
    actions,
    selectedIds,
    selectionHasAi,
    selectionLocked,
    busy,
    onRun,
    onCellClick,
    undo,
    onKeysHelp,
    matching,
    onColumns,
  } = props;
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const formatCount = useFormatCount();
  const reBin = useReBin();
  const [cellSize, setCellSize] = useCellSize();
  const categoryId = ws.category?.id;
  const totalText = capped
    ? t('identify.totalCapped', { count: formatCount(total) })
    : t('identify.total', { count: total, n: formatCount(total) });

  const purge = () =>
    modal.confirm({
      title: t('identify.purge'),
      content: t('identify.purgeConfirm', { count: selectedIds.length }),
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () =>
        reBin.mutateAsync({ action: 'delete', roi_ids: selectedIds }).then(
          () => {
            void message.success(t('messages.deleteSuccess'));
            ws.setSelection(EMPTY_SELECTION);
          },
          () => undefined,
        ),
    });

  const body = () => {
    if (ws.query === null) {
      return (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={ws.stations.length === 0 && !ws.ipps.isPending ? t('monitor.noStations') : t('identify.pickStation')}
        />
      );
    }
    if (list.isPending) {
      return (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin description={t('common.loading')} data-testid="identify-grid-loading" />
        </Flex>
      );
    }
    if (list.isError && items.length === 0) return <LoadFailed error={list.error} onRetry={() => void list.refetch()} />;
    if (items.length === 0) {
      return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.empty')} data-testid="identify-grid-empty" />;
    }
    return (
      <RoiGrid
        items={items}
        selection={ws.selection}
        focusedId={ws.focusedId}
        onCellClick={onCellClick}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
        loadedLabel={t('identify.loaded', { loaded: formatCount(items.length), total: formatCount(total) })}
        cellSize={cellSize}
        onColumns={onColumns}
      />
    );
  };

  return (
    <Flex vertical gap="small">
      <FiltersBar
        filters={ws.filters}
        onChange={ws.setFilters}
        review={categoryId === CATEGORY.REVIEW}
        isAdmin={ws.isAdmin}
        groupId={ws.groupId}
      />
      <Flex justify="space-between" align="center" wrap gap="small">
        <Flex align="center" gap="middle">
          <Typography.Text strong data-testid="identify-total" data-count={total} data-capped={capped}>
            {ws.query && !list.isPending ? totalText : '—'}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="identify-selection-count" data-count={selectedIds.length}>
            {t('identify.selected', { count: selectedIds.length })}
          </Typography.Text>
          <Flex align="center" gap={4}>
            <ZoomInOutlined aria-hidden style={{ color: 'var(--ant-color-text-tertiary)' }} />
            <Slider
              min={CELL_SIZES.min}
              max={CELL_SIZES.max}
              step={CELL_SIZES.step}
              value={cellSize}
              onChange={setCellSize}
              tooltip={{ formatter: (value) => `${value} px` }}
              style={{ width: 96, margin: '0 4px' }}
              ariaLabelForHandle={t('identify.zoom')}
              ariaValueTextFormatterForHandle={(value) => `${value} px`}
              data-testid="identify-zoom"
            />
          </Flex>
        </Flex>
        <Flex wrap gap="small">
          <UndoButton action={undo.action} busy={undo.busy} onUndo={() => void undo.run()} />
          <Button
            size="small"
            disabled={items.length === 0}
            onClick={() => ws.setSelection(selectAll(order))}
            data-testid="identify-select-page"
          >
            {t('identify.selectPage')}
          </Button>
          <Button
            size="small"
            disabled={items.length === 0}
            loading={matching.busy}
            onClick={() => void matching.run()}
            aria-keyshortcuts="Control+Shift+A"
            data-testid="identify-select-matching"
          >
            {t('identify.matching.button')}
          </Button>
          <Button
            size="small"
            disabled={selectedIds.length === 0}
            onClick={() => ws.setSelection(EMPTY_SELECTION)}
            data-testid="identify-clear-selection"
          >
            {t('identify.clearSelection')}
          </Button>
          <ExportButton query={ws.query} selectedIds={selectedIds} />
          {ws.isAdmin && !ws.session.demo && categoryId !== undefined && IMPORT_CATEGORIES.includes(categoryId) && (
            <ImportButton stations={ws.stations} defaultDevId={ws.station?.dev_id} />
          )}
          {categoryId === CATEGORY.RECYCLE && ws.isAdmin && !ws.session.demo && (
            <Button
              size="small"
              danger
              disabled={selectedIds.length === 0 || reBin.isPending}
              onClick={purge}
              data-testid="identify-purge"
            >
              {t('identify.purge')}
            </Button>
          )}
        </Flex>
      </Flex>
      {actions && (
        <ActionBar
          actions={actions.actions}
          reason={actions.reason}
          selectedCount={selectedIds.length}
          selectionHasAi={selectionHasAi}
          selectionLocked={selectionLocked}
          busy={busy}
          onRun={onRun}
        />
      )}
      <Flex align="center" gap="small" wrap>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('identify.selectionHint')}
        </Typography.Text>
        <Button
          size="small"
          type="link"
          icon={<QuestionCircleOutlined />}
          onClick={onKeysHelp}
          aria-keyshortcuts="?"
          style={{ paddingInline: 0, fontSize: 12 }}
          data-testid="identify-keys-open"
        >
          {t('identify.keys.open')}
        </Button>
      </Flex>
      {body()}
    </Flex>
  );
}
