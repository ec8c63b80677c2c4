import { AppstoreOutlined, BulbOutlined, LeftOutlined, LinkOutlined, RightOutlined, StarFilled } from '@ant-design/icons';
import type { Action, RoiItem, RoiSummary } from '@ipp/contracts';
import { Button, Descriptions, Divider, Empty, Flex, Skeleton, Spin, Tag, Tooltip, Typography } from 'antd';
import { memo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { imageUrl } from '@/api/client';
import { formatConfidence, formatFileSize, formatTime } from '@/lib/format';
import { imageDetailPath } from '@/lib/monitor-paths';
import { stationName } from '@/lib/station-name';
import { useEnhancedUrl } from '../api/enhance-roi';
import { useRoiInsight } from '../api/get-roi-insight';
import { useActionLabel } from '../hooks/use-action-label';
import { isTyping } from '../hooks/use-identify-keys';
import { labelProvenance, type Provenance } from '../utils/provenance';
import { AiInsight } from './ai/ai-insight';
import { LabelHistory } from './label-history';
import { ReferenceButton } from './ai/reference-button';
import { SimilarDrawer } from './ai/similar-drawer';
import { sizeText } from '@/lib/roi-size';
import { taxonText } from '@/lib/taxon';
import { useClasses } from '@/api/get-classes';
import { RoiFlags } from '@/components/roi-flags';
import { useStationZone } from '@/hooks/use-station-zone';
import { TimeText } from '@/components/time-text';

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
  /** The team chosen by a superadmin (the reference library to compare with). */
  groupId?: number;
  /** Bumped by the M key anywhere in the workspace: opens "more like this" for the shown ROI. */
  similarRequest?: number;
}

/** The right pane: the focused ROI large, what is known of it, and previous/next in the list's order. */
/** Memoised: the grid's selection changes often and the pane does not show it (issue 25: keys answered fast). */
export const DetailPane = memo(function DetailPane(props: DetailPaneProps) {
  const { roi, loading, previousId, nextId, onMove, actions, onRun, busy, reviewKeys, groupId, similarRequest = 0 } = props;
  const { t, i18n } = useTranslation();
  const label = useActionLabel();
  const [broken, setBroken] = useState<string | null>(null);
  // Stays on while moving through the list: each ROI is then shown enhanced.
  const [enhanced, setEnhanced] = useState(false);
  const enhancedUrl = useEnhancedUrl(enhanced && roi ? roi.id : null);
  /** The ROI whose neighbours the drawer shows. */
  const [similarOf, setSimilarOf] = useState<number | null>(null);
  // The same query as the AI section below (one request): whether a model gave the label.
  const insight = useRoiInsight(roi ? roi.id : null);
  const zone = useStationZone(roi?.ipp_id);
  const classes = useClasses();
  // A new request (the M key) opens it for the ROI shown; moving to another ROI does not.
  const [seenRequest, setSeenRequest] = useState(similarRequest);
  if (seenRequest !== similarRequest) {
    setSeenRequest(similarRequest);
    if (roi) setSimilarOf(roi.id);
  }
  if (loading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!roi) {
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.detail.none')} data-testid="identify-detail-none" />
    );
  }
  const showEnhanced = enhanced && enhancedUrl.data !== undefined;
  const url = showEnhanced ? enhancedUrl.data! : imageUrl(roi.url);
  const className = roi.class_name ?? t('monitor.unclassified');
  const taxon = roi.class_id === null ? null : (classes.data?.find((c) => c.id === roi.class_id)?.taxon ?? null);
  const yesNo = (value: boolean | undefined) =>
    value === undefined ? '—' : t(value ? 'identify.detail.yes' : 'identify.detail.no');
  const provenance: Provenance | null = insight.isError
    ? labelProvenance(roi, null)
    : labelProvenance(roi, insight.data === undefined ? undefined : insight.data.ai);
  const labelledBy = (p: Provenance) =>
    p.source === 'model'
      ? t('identify.detail.labelledByModel', { version: p.modelVersion })
      : (p.person ?? t(`identify.detail.labelledBy.${p.source}`));
  const item = (key: string, text: string, children: ReactNode) => ({
    key,
    label: text,
    children: <span data-testid={`identify-detail-${key}`}>{children}</span>,
  });

  // M while the pane (or a control in it) has focus; a drawer's keys reach here through the portal and are left alone.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key.toLowerCase() !== 'm' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (isTyping(event.target) || !event.currentTarget.contains(event.target as Node)) return;
    event.preventDefault();
    setSimilarOf(roi.id);
  };

  return (
    <Flex
      vertical
      gap="small"
      tabIndex={0}
      role="region"
      aria-label={t('identify.detail.title')}
      onKeyDown={onKeyDown}
      data-testid="identify-detail"
      data-roi={roi.id}
    >
      <Spin spinning={enhanced && enhancedUrl.isPending} description={t('identify.ai.enhancing')}>
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
              data-enhanced={showEnhanced}
            />
          )}
        </Flex>
      </Spin>
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
      <Flex wrap gap="small">
        <Tooltip title={t('identify.ai.enhanceHint')}>
          <Button
            size="small"
            icon={<BulbOutlined />}
            type={enhanced ? 'primary' : 'default'}
            aria-pressed={enhanced}
            onClick={() => setEnhanced((on) => !on)}
            data-testid="identify-enhance"
          >
            {t('identify.ai.enhance')}
          </Button>
        </Tooltip>
        <Tooltip title={t('identify.ai.similarKey')}>
          <Button
            size="small"
            icon={<AppstoreOutlined />}
            aria-keyshortcuts="M"
            onClick={() => setSimilarOf(roi.id)}
            data-testid="identify-similar"
          >
            {t('identify.ai.similar')}
          </Button>
        </Tooltip>
        <ReferenceButton key={roi.id} roiId={roi.id} groupId={groupId} />
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
      <Divider titlePlacement="start" plain style={{ margin: '4px 0' }}>
        {t('identify.ai.title')}
      </Divider>
      <AiInsight roiId={roi.id} byDevice={provenance?.source === 'device'} />
      <Descriptions
        size="small"
        column={1}
        bordered
        // English labels break between words only (nowrap would squeeze the values). Chinese has no spaces, so keep-all
        // made "采集时的仪器状态" one unbreakable run and pushed the table out of the pane: there labels break between
        // characters, in a column at least five characters wide ("标注者" had broken after two when squeezed). Narrower
        // padding than antd's 16 px: a time (one line) beside "Instrument" pushed the table 9 px out at 1440 px.
        styles={{
          label: {
            paddingInline: 10,
            ...(i18n.language === 'en' ? { wordBreak: 'keep-all' } : { wordBreak: 'normal', width: '5.5em' }),
          },
          content: { paddingInline: 10 },
        }}
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
          ...(taxon ? [item('taxon', t('identify.taxa.taxon'), taxonText(taxon, i18n.language))] : []),
          item('type', t('image.type'), <Tag color={TYPE_COLORS[roi.type]}>{t(`image.types.${roi.type}`)}</Tag>),
          item('labelled-by', t('identify.detail.labelledByLabel'), provenance ? labelledBy(provenance) : '…'),
          ...(provenance?.at ? [item('labelled-at', t('identify.detail.labelledAt'), <TimeText at={provenance.at} />)] : []),
          // Only machines say how sure they are: no confidence for a hand label or an unclassified image.
          ...(provenance?.confidence != null
            ? [item('confidence', t('image.confidence'), formatConfidence(provenance.confidence))]
            : []),
          item('captured', t('image.captured'), <TimeText at={roi.roi_time} stationZone={zone} />),
          item('flags', t('roiFlags.label'), <RoiFlags flags={roi.flags} testId="identify-detail-flags" />),
          item('file-size', t('image.fileSize'), formatFileSize(roi.bytes)),
          item('size', t('image.sizePx'), sizeText(roi, t)),
          item('dimensions', t('image.dimensions'), `${roi.width} × ${roi.height} px`),
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
      <Divider titlePlacement="start" plain style={{ margin: '4px 0' }}>
        {t('identify.history.title')}
      </Divider>
      <LabelHistory roiId={roi.id} />
      {similarOf !== null && (
        <SimilarDrawer
          roiId={similarOf}
          onClose={() => setSimilarOf(null)}
          onOpen={(id) => {
            setSimilarOf(null);
            onMove(id);
          }}
        />
      )}
    </Flex>
  );
});
