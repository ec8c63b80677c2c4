import type { RoiItem } from '@ipp/contracts';
import { Button, Flex } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClickModifiers, Selection } from '../utils/selection';
import { CELL_SIZE, RoiCell } from './roi-cell';

interface RoiGridProps {
  items: readonly RoiItem[];
  selection: Selection;
  focusedId: number | null;
  onCellClick: (id: number, mods: ClickModifiers) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  loadedLabel: string;
}

/**
 * The thumbnails of the loaded pages (200 each, keyset). The next page loads when the end of the grid scrolls
 * into view, or with the button.
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
}: RoiGridProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef(onLoadMore);
  useEffect(() => {
    loadMore.current = onLoadMore;
  });

  useEffect(() => {
    const target = sentinel.current;
    if (!hasMore || loadingMore || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore.current();
      },
      { root: scroller.current, rootMargin: '200px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, loadingMore, items.length]);

  // The focused ROI (moved with the keys or previous/next) stays in view.
  useEffect(() => {
    if (focusedId === null) return;
    scroller.current?.querySelector(`[data-testid="roi-cell-${focusedId}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [focusedId]);

  return (
    <div ref={scroller} style={{ maxHeight: 'calc(100vh - 330px)', minHeight: 240, overflowY: 'auto', paddingRight: 4 }}>
      <div
        role="listbox"
        aria-multiselectable
        aria-label={t('identify.grid')}
        data-testid="identify-grid"
        data-count={items.length}
        style={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${CELL_SIZE}px, 1fr))`, gap: 8 }}
      >
        {items.map((roi) => (
          <RoiCell
            key={roi.id}
            roi={roi}
            selected={selection.ids.has(roi.id)}
            focused={roi.id === focusedId}
            onClick={onCellClick}
          />
        ))}
      </div>
      <div ref={sentinel} style={{ height: 1 }} />
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
