import { StarFilled } from '@ant-design/icons';
import type { RoiItem } from '@ipp/contracts';
import { Checkbox, Flex, Tag, theme } from 'antd';
import { memo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl } from '@/api/client';
import { RoiFlags } from '@/components/roi-flags';
import { formatTime } from '@/lib/format';
import type { ClickModifiers } from '../utils/selection';

export const CELL_SIZE = 120;
/** A cell's full height (border, padding, thumbnail, caption): the grid lays rows out at this pitch. */
export const CELL_HEIGHT = CELL_SIZE + 42;
const TYPE_COLORS = { ai: 'blue', hi: 'green', ui: 'default' } as const;

interface RoiCellProps {
  roi: RoiItem;
  selected: boolean;
  focused: boolean;
  onClick: (id: number, mods: ClickModifiers) => void;
}

/** One thumbnail of the grid: click selects (Shift range, Ctrl/⌘ toggle), the checkbox toggles. */
export const RoiCell = memo(function RoiCell({ roi, selected, focused, onClick }: RoiCellProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [broken, setBroken] = useState(false);
  const className = roi.class_name ?? t('monitor.unclassified');
  const style: CSSProperties = {
    position: 'relative',
    padding: 4,
    borderRadius: 6,
    cursor: 'pointer',
    userSelect: 'none',
    border: `2px solid ${selected ? token.colorPrimary : 'transparent'}`,
    background: selected ? token.colorPrimaryBg : token.colorFillQuaternary,
    outline: focused ? `2px dashed ${token.colorWarning}` : undefined,
    outlineOffset: 1,
    boxSizing: 'border-box',
    height: CELL_HEIGHT,
    overflow: 'hidden',
    opacity: roi.invalid ? 0.6 : 1,
  };
  return (
    <div
      role="option"
      aria-selected={selected}
      aria-label={`${className} · ${formatTime(roi.roi_time)}`}
      tabIndex={-1}
      style={style}
      // Shift-click must not select the page's text.
      onMouseDown={(event) => event.shiftKey && event.preventDefault()}
      onClick={(event) => onClick(roi.id, { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey })}
      data-testid={`roi-cell-${roi.id}`}
      data-selected={selected}
      data-focused={focused}
      data-type={roi.type}
    >
      <span style={{ position: 'absolute', top: 6, left: 6, zIndex: 1 }} onClick={(event) => event.stopPropagation()}>
        <Checkbox
          checked={selected}
          aria-label={className}
          onChange={(event) => onClick(roi.id, { range: (event.nativeEvent as MouseEvent).shiftKey, toggle: true })}
          data-testid={`roi-check-${roi.id}`}
        />
      </span>
      <span style={{ position: 'absolute', top: 8, right: 8, zIndex: 1 }}>
        <RoiFlags flags={roi.flags} compact testId={`roi-flags-${roi.id}`} />
      </span>
      {broken ? (
        <Flex
          align="center"
          justify="center"
          style={{ height: CELL_SIZE, fontSize: 12, color: token.colorTextTertiary, textAlign: 'center' }}
        >
          {t('monitor.noImage')}
        </Flex>
      ) : (
        <img
          src={imageUrl(roi.thumb_url)}
          alt={className}
          loading="lazy"
          draggable={false}
          onError={() => setBroken(true)}
          style={{
            display: 'block',
            width: '100%',
            height: CELL_SIZE,
            objectFit: 'contain',
            background: '#1f1f1f',
            borderRadius: 4,
          }}
        />
      )}
      <Flex justify="space-between" align="center" gap={4} style={{ marginTop: 4 }}>
        {/* Plain CSS ellipsis: Typography's measuring ellipsis costs a layout per cell as the grid scrolls. */}
        <span
          title={className}
          style={{
            fontSize: 12,
            minWidth: 0,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            color: roi.attention ? token.colorWarningText : token.colorText,
          }}
        >
          {roi.attention && <StarFilled style={{ marginRight: 2 }} />}
          {className}
        </span>
        <Tag color={TYPE_COLORS[roi.type]} style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4 }}>
          {roi.type.toUpperCase()}
        </Tag>
      </Flex>
    </div>
  );
});
