import type { RoiItem } from '@ipp/contracts';
import { Button, Flex } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClickModifiers, Selection } from '../utils/selection';
import { useClasses } from '@/api/get-classes';
import { CELL_SIZE, cellElementId, cellHeight, RoiCell } from './roi-cell';
import './roi-grid.css';

const GAP = 8;
/** Rows rendered above and below the visible ones, so a fast scroll does not show blanks. */
const OVERSCAN_ROWS = 2;
/** The next page is asked for when the visible rows come this close to the last loaded one. */
const PREFETCH_ROWS = 3;

interface RoiGridProps {
  items: readonly RoiItem[];
  selection: Selection;
  focusedId: number | null;
  onCellClick: (id: number, mods: ClickModifiers) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  loadedLabel: string;
  /** Thumbnail size, px (the zoom slider). */
  cellSize?: number;
  /** Told the number of columns whenever it changes (↑ and ↓ move by a row). */
  onColumns?: (columns: number) => void;
}

interface Viewport {
  width: number;
  height: number;
  top: number;
}

/** Columns that fit a width, as `repeat(auto-fill, minmax(size, 1fr))` would make them. */
export const columnsFor = (width: number, size = CELL_SIZE) => Math.max(1, Math.floor((width + GAP) / (size + GAP)));

const pitchOf = (size: number) => cellHeight(size) + GAP;

/** The rows to render for a viewport: the visible ones and OVERSCAN_ROWS either side, [first, last). */
export function windowOf(viewport: Viewport, rows: number, size = CELL_SIZE): [number, number] {
  const pitch = pitchOf(size);
  const first = Math.max(0, Math.floor(viewport.top / pitch) - OVERSCAN_ROWS);
  const last = Math.min(rows, Math.ceil((viewport.top + viewport.height) / pitch) + OVERSCAN_ROWS);
  return [first, Math.max(first, last)];
}

/**
 * The thumbnails of the loaded pages (200 each, keyset), as a windowed grid: only the rows in view (and a few
 * around them) are in the DOM, so 10,000 loaded ROIs cost what one screen does. The next page loads when the
 * view nears the last loaded row, or with the button. Before the grid has been measured (and where the browser
 * cannot measure, as in unit tests) every cell is rendered.
 */
export function RoiGrid({
  items,
  selection,
  focusedId,
  onCellClick,
  hasMore,
  loadingMore,
  onLoadMore,
  loadedLabel,
  cellSize = CELL_SIZE,
  onColumns,
}: RoiGridProps) {
  const { t } = useTranslation();
  const classes = useClasses();
  const rowPitch = pitchOf(cellSize);
  const fullHeight = cellHeight(cellSize);
  const names = classes.data;
  const nameOf = useMemo(() => {
    const byId = new Map((names ?? []).map((c) => [c.id, c.title]));
    return (classId: number) => byId.get(classId) ?? `#${classId}`;
  }, [names]);
  const scroller = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState<Viewport | null>(null);
  const frame = useRef(0);

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el || el.clientWidth === 0) return;
    const next = { width: el.clientWidth - 4, height: el.clientHeight, top: el.scrollTop };
    setViewport((prev) =>
      prev && prev.width === next.width && prev.height === next.height && prev.top === next.top ? prev : next,
    );
  }, []);

  useLayoutEffect(() => {
    measure();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(measure);
  };

  const columns = viewport ? columnsFor(viewport.width, cellSize) : 1;
  const rows = Math.ceil(items.length / columns);
  useEffect(() => onColumns?.(columns), [columns, onColumns]);
  const [firstRow, lastRow] = viewport ? windowOf(viewport, rows, cellSize) : [0, rows];
  const shown = viewport ? items.slice(firstRow * columns, lastRow * columns) : items;
  const activeShown = focusedId !== null && shown.some((roi) => roi.id === focusedId);

  // The next page, once the view is near the end of what is loaded.
  const loadMore = useRef(onLoadMore);
  useEffect(() => {
    loadMore.current = onLoadMore;
  });
  const nearEnd = viewport !== null && lastRow >= rows - PREFETCH_ROWS;
  useEffect(() => {
    if (nearEnd && hasMore && !loadingMore) loadMore.current();
  }, [nearEnd, hasMore, loadingMore, items.length]);

  // The focused ROI (moved with the keys or previous/next) is scrolled into view: its row may not be rendered.
  useEffect(() => {
    const el = scroller.current;
    if (focusedId === null || !el) return;
    const index = items.findIndex((roi) => roi.id === focusedId);
    if (index < 0) return;
    if (!viewport) {
      el.querySelector(`[data-testid="roi-cell-${focusedId}"]`)?.scrollIntoView?.({ block: 'nearest' });
      return;
    }
    const top = Math.floor(index / columns) * rowPitch;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + fullHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + fullHeight - el.clientHeight;
    // Only when the focus moves: the items and the layout changing must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusedId]);

  const gridStyle = {
    display: 'grid',
    gridTemplateColumns: viewport ? `repeat(${columns}, minmax(0, 1fr))` : `repeat(auto-fill, minmax(${cellSize}px, 1fr))`,
    gridAutoRows: fullHeight,
    gap: GAP,
  } as const;

  return (
    <div
      ref={scroller}
      onScroll={onScroll}
      style={{ maxHeight: 'calc(100vh - 330px)', minHeight: 240, overflowY: 'auto', paddingRight: 4 }}
      data-testid="identify-grid-scroller"
    >
      {/* One Tab stop: the arrows move inside it (use-identify-keys.ts), the focused cell its active descendant. */}
      <div
        role="listbox"
        tabIndex={0}
        className="identify-grid"
        aria-multiselectable
        aria-label={t('identify.grid')}
        aria-activedescendant={activeShown && focusedId !== null ? cellElementId(focusedId) : undefined}
        data-testid="identify-grid"
        data-count={items.length}
        data-rendered={shown.length}
        style={viewport ? { position: 'relative', height: Math.max(0, rows * rowPitch - GAP) } : undefined}
      >
        <div
          role="presentation"
          style={viewport ? { ...gridStyle, position: 'absolute', top: firstRow * rowPitch, left: 0, right: 0 } : gridStyle}
        >
          {shown.map((roi) => (
            <RoiCell
              key={roi.id}
              roi={roi}
              selected={selection.ids.has(roi.id)}
              focused={roi.id === focusedId}
              onClick={onCellClick}
              size={cellSize}
              nameOf={nameOf}
            />
          ))}
        </div>
      </div>
      {hasMore && (
        <Flex justify="center" style={{ padding: 8 }}>
          <Button loading={loadingMore} onClick={onLoadMore} data-testid="identify-load-more">
            {t('identify.loadMore')} · {loadedLabel}
          </Button>
        </Flex>
      )}
    </div>
  );
}
