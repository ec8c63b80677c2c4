import { CheckOutlined, QuestionOutlined, StarFilled } from '@ant-design/icons';
import type { RoiItem } from '@ipp/contracts';
import { Flex, Tag, theme } from 'antd';
import { memo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl } from '@/api/client';
import { RoiFlags } from '@/components/roi-flags';
import { VisuallyHidden } from '@/components/visually-hidden';
import { formatTime } from '@/lib/format';
import type { ClickModifiers } from '../utils/selection';
import { CELL_SIZES, labelMark, scaleBar, shortConfidence, topText } from '../utils/thumbnail';

export const CELL_SIZE: number = CELL_SIZES.default;
/** A cell's full height for a thumbnail size (border, padding, thumbnail, caption): the grid lays rows out at this pitch. */
export const cellHeight = (size: number) => size + 42;
export const CELL_HEIGHT = cellHeight(CELL_SIZE);
const MARK_COLORS = { validated: 'green', predicted: 'blue', dubious: 'orange', none: 'default' } as const;

interface RoiCellProps {
  roi: RoiItem;
  selected: boolean;
  focused: boolean;
  onClick: (id: number, mods: ClickModifiers) => void;
  /** Thumbnail size, px (the zoom slider). */
  size?: number;
  /** A class's name for the top-3 hover. */
  nameOf?: (classId: number) => string;
}

/** The id of a cell's element: the grid names the focused one as its active descendant. */
export const cellElementId = (roiId: number) => `roi-option-${roiId}`;

/**
 * One thumbnail of the grid, an option of its listbox: click selects (Shift range, Ctrl/⌘ toggle), the box in its
 * corner toggles. It is named by what it shows (class, mark, scale) and, for screen readers, the mark's meaning and
 * the capture time; it holds nothing focusable (the grid is one Tab stop, issue 37). It says what the
 * label is (issue 25): the class, a mark (✓ validated by a person, AI with the model's calibrated confidence, ?
 * dubious: waiting for or refused in review), the model's top 3 on hover, and a µm scale bar where the station's
 * pixel size is known.
 */
export const RoiCell = memo(function RoiCell({ roi, selected, focused, onClick, size = CELL_SIZE, nameOf }: RoiCellProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [broken, setBroken] = useState(false);
  const className = roi.class_name ?? t('monitor.unclassified');
  const mark = labelMark(roi);
  const confidence = roi.type === 'ai' && roi.confidence !== null ? shortConfidence(roi.confidence) : null;
  const top = roi.ai_top.length > 0 && nameOf ? topText(roi.ai_top, nameOf) : null;
  const markTitle = [t(`identify.mark.${mark}`), top ? `${t('identify.mark.top')}: ${top}` : null].filter(Boolean).join('\n');
  const bar = broken ? null : scaleBar(roi, size);
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
    height: cellHeight(size),
    overflow: 'hidden',
    opacity: roi.invalid ? 0.6 : 1,
  };
  return (
    <div
      role="option"
      id={cellElementId(roi.id)}
      aria-selected={selected}
      style={style}
      // Shift-click must not select the page's text.
      onMouseDown={(event) => event.shiftKey && event.preventDefault()}
      onClick={(event) => onClick(roi.id, { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey })}
      data-testid={`roi-cell-${roi.id}`}
      data-selected={selected}
      data-focused={focused}
      data-type={roi.type}
      data-mark={mark}
    >
      {/* A checkbox to the eye and the mouse only: the option's aria-selected says it, and the grid's keys toggle it. */}
      <span
        aria-hidden
        style={{
          position: 'absolute',
          top: 6,
          left: 6,
          zIndex: 1,
          width: 16,
          height: 16,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          boxSizing: 'border-box',
          borderRadius: 4,
          border: `1px solid ${selected ? token.colorPrimary : token.colorBorder}`,
          background: selected ? token.colorPrimary : token.colorBgContainer,
          color: token.colorTextLightSolid,
          fontSize: 10,
        }}
        onClick={(event) => {
          event.stopPropagation();
          onClick(roi.id, { range: event.shiftKey, toggle: true });
        }}
        data-testid={`roi-check-${roi.id}`}
        data-checked={selected}
      >
        {selected && <CheckOutlined />}
      </span>
      <span style={{ position: 'absolute', top: 8, right: 8, zIndex: 1 }}>
        <RoiFlags flags={roi.flags} compact testId={`roi-flags-${roi.id}`} />
      </span>
      <div style={{ position: 'relative', height: size, background: '#1f1f1f', borderRadius: 4 }}>
        {broken ? (
          <Flex
            align="center"
            justify="center"
            style={{ height: size, fontSize: 12, color: token.colorTextTertiary, textAlign: 'center' }}
          >
            {t('monitor.noImage')}
          </Flex>
        ) : (
          <img
            src={imageUrl(roi.thumb_url)}
            alt=""
            loading="lazy"
            draggable={false}
            onError={() => setBroken(true)}
            // A square of the chosen size in the middle of the cell, so the scale bar measures what is shown.
            style={{ display: 'block', width: size, height: size, margin: '0 auto', objectFit: 'contain' }}
          />
        )}
        {bar && (
          <span
            style={{ position: 'absolute', left: 6, bottom: 4, fontSize: 10, lineHeight: '12px', color: '#f0f0f0' }}
            data-testid={`roi-scale-${roi.id}`}
            data-um={bar.um}
          >
            <span style={{ display: 'block', width: bar.px, height: 2, background: '#f0f0f0', marginBottom: 1 }} />
            {bar.um >= 1000 ? `${bar.um / 1000} mm` : `${bar.um} µm`}
          </span>
        )}
      </div>
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
          {roi.attention && <StarFilled aria-hidden style={{ marginRight: 2 }} />}
          {className}
        </span>
        <Tag
          color={MARK_COLORS[mark]}
          title={markTitle}
          style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4, flexShrink: 0 }}
          data-testid={`roi-mark-${roi.id}`}
        >
          {mark === 'validated' && <CheckOutlined style={{ marginInlineEnd: 2 }} />}
          {mark === 'dubious' && <QuestionOutlined style={{ marginInlineEnd: 2 }} />}
          {roi.type.toUpperCase()}
          {confidence && ` ${confidence}`}
        </Tag>
      </Flex>
      <VisuallyHidden>{` · ${t(`identify.mark.${mark}`)} · ${formatTime(roi.roi_time)}`}</VisuallyHidden>
    </div>
  );
});
