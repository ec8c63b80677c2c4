import { LeftOutlined, LinkOutlined, RightOutlined, StarFilled } from '@ant-design/icons';
import type { Action, RoiItem, RoiSummary } from '@ipp/contracts';
import { Button, Descriptions, Empty, Flex, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { imageUrl } from '@/api/client';
import { formatFileSize, formatTime } from '@/lib/format';
import { imageDetailPath } from '@/lib/monitor-paths';
import { stationName } from '@/lib/station-name';
import { useActionLabel } from '../hooks/use-action-label';

/** An ROI of the loaded pages carries the workspace fields; one reached by previous/next may only have the summary. */
export type DetailRoi = RoiSummary & Partial<RoiItem>;

const TYPE_COLORS = { ai: 'blue', hi: 'green', ui: 'default' } as const;
const REVIEW_COLORS = { none: 'default', pending: 'processing', approved: 'success', rejected: 'error' } as const;

interface DetailPaneProps {
  roi: DetailRoi | undefined;
  loading: boolean;
  previousId: number | null;
  nextId: number | null;
  onMove: (id: number) => void;
  /** Actions for this one ROI (e.g. removing it from the Xcube library). */
  actions: readonly Action[];
  onRun: (action: Action) => void;
  busy: boolean;
  /** In the review queue: the A / R keys approve and reject. */
  reviewKeys: boolean;
}

/** The right pane: the focused ROI large, what is known of it, and previous/next in the list's order. */
export function DetailPane({ roi, loading, previousId, nextId, onMove, actions, onRun, busy, reviewKeys }: DetailPaneProps) {
  const { t } = useTranslation();
  const label = useActionLabel();
  const [broken, setBroken] = useState<string | null>(null);
  if (loading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!roi) {
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.detail.none')} data-testid="identify-detail-none" />
    );
  }
  const url = imageUrl(roi.url);
  const className = roi.class_name ?? t('monitor.unclassified');
  const yesNo = (value: boolean | undefined) =>
    value === undefined ? '—' : t(value ? 'identify.detail.yes' : 'identify.detail.no');
  const item = (key: string, text: string, children: ReactNode) => ({
    key,
    label: text,
    children: <span data-testid={`identify-detail-${key}`}>{children}</span>,
  });

  return (
    <Flex vertical gap="small" data-testid="identify-detail" data-roi={roi.id}>
      <Flex align="center" justify="center" style={{ minHeight: 220, background: '#1f1f1f', borderRadius: 6, padding: 8 }}>
        {broken === url ? (
          <Typography.Text style={{ color: '#d9d9d9' }}>{t('monitor.noImage')}</Typography.Text>
        ) : (
          <img
            key={url}
            src={url}
            alt={`${className}, ${formatTime(roi.roi_time)}`}
            onError={() => setBroken(url)}
            // Plankton ROIs are often a few dozen pixels: shown enlarged, whole.
            style={{ width: '100%', height: 300, objectFit: 'contain' }}
            data-testid="identify-detail-image"
          />
        )}
      </Flex>
      <Flex justify="space-between" align="center" gap="small">
        <Tooltip title={t('identify.detail.previousHint')}>
          <Button
            size="small"
            icon={<LeftOutlined />}
            disabled={previousId === null}
            onClick={() => previousId !== null && onMove(previousId)}
            data-testid="identify-prev"
          >
            {t('image.previous')}
          </Button>
        </Tooltip>
        <Tooltip title={t('identify.detail.nextHint')}>
          <Button
            size="small"
            disabled={nextId === null}
            onClick={() => nextId !== null && onMove(nextId)}
            data-testid="identify-next"
          >
            {t('image.next')} <RightOutlined />
          </Button>
        </Tooltip>
      </Flex>
      <Link to={imageDetailPath(roi.id)} data-testid="identify-open-detail">
        <LinkOutlined /> {t('identify.detail.open')}
      </Link>
      {reviewKeys && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('identify.detail.reviewKeys')}
        </Typography.Text>
      )}
      {actions.length > 0 && (
        <Flex wrap gap="small">
          {actions.map((action) => (
            <Button
              key={action.code}
              size="small"
              danger={action.danger}
              disabled={busy}
              onClick={() => onRun(action)}
              data-testid={`action-${action.code}`}
            >
              {label(action.code)}
            </Button>
          ))}
        </Flex>
      )}
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          item(
            'class',
            t('image.class'),
            <>
              {roi.attention && (
                <StarFilled style={{ color: '#d46b08', marginRight: 4 }} aria-label={t('identify.detail.attention')} />
              )}
              {className}
            </>,
          ),
          item('type', t('image.type'), <Tag color={TYPE_COLORS[roi.type]}>{t(`image.types.${roi.type}`)}</Tag>),
          item('captured', t('image.captured'), formatTime(roi.roi_time)),
          item('file-size', t('image.fileSize'), formatFileSize(roi.bytes)),
          item('size', t('image.sizePx'), `${roi.size_px} px`),
          item('dimensions', t('image.dimensions'), `${roi.width} × ${roi.height} px`),
          item('confidence', t('image.confidence'), roi.confidence === null ? '—' : `${(roi.confidence * 100).toFixed(1)} %`),
          item(
            'invalid',
            t('identify.detail.invalid'),
            roi.invalid ? <Tag color="error">{t('identify.detail.yes')}</Tag> : yesNo(roi.invalid),
          ),
          item('index', t('identify.detail.index'), roi.index ?? '—'),
          item('attention', t('identify.detail.attention'), yesNo(roi.attention)),
          item(
            'review',
            t('identify.detail.review'),
            roi.review_status ? (
              <Tag color={REVIEW_COLORS[roi.review_status]}>{t(`identify.detail.reviewStatus.${roi.review_status}`)}</Tag>
            ) : (
              '—'
            ),
          ),
          item('station', t('monitor.station'), stationName(roi)),
          item('id', t('image.id'), roi.id),
        ]}
      />
    </Flex>
  );
}
