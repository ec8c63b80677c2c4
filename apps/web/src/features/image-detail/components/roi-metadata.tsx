import type { RoiSummary } from '@ipp/contracts';
import { Descriptions, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatFileSize } from '@/lib/format';
import { stationPreviewPath } from '@/lib/monitor-paths';
import { stationName } from '@/lib/station-name';
import { sizeText } from '@/lib/roi-size';
import { RoiFlags } from '@/components/roi-flags';
import { useStationZone } from '@/hooks/use-station-zone';
import { TimeText } from '@/components/time-text';

const TYPE_COLORS = { ai: 'blue', hi: 'green', ui: 'default' } as const;

/** What is known of one image: where and when it was taken, its class and how it was classified, its size. */
export function RoiMetadata({ roi }: { roi: RoiSummary }) {
  const { t } = useTranslation();
  const zone = useStationZone(roi.ipp_id);
  const item = (key: string, label: string, children: ReactNode) => ({
    key,
    label,
    children: <span data-testid={`image-meta-${key}`}>{children}</span>,
  });
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      items={[
        item('station', t('monitor.station'), <Link to={stationPreviewPath(roi.ipp_id)}>{stationName(roi)}</Link>),
        item('captured', t('image.captured'), <TimeText at={roi.roi_time} stationZone={zone} />),
        item('received', t('image.received'), <TimeText at={roi.received_at} stationZone={zone} />),
        item('flags', t('roiFlags.label'), <RoiFlags flags={roi.flags} testId="image-flags" />),
        item('class', t('image.class'), roi.class_name ?? t('monitor.unclassified')),
        item('type', t('image.type'), <Tag color={TYPE_COLORS[roi.type]}>{t(`image.types.${roi.type}`)}</Tag>),
        item('confidence', t('image.confidence'), roi.confidence === null ? '—' : `${(roi.confidence * 100).toFixed(1)} %`),
        item('label-index', t('image.labelIndex'), String(roi.roi_labelindex)),
        item('size', t('image.sizePx'), sizeText(roi, t)),
        item('dimensions', t('image.dimensions'), `${roi.width} × ${roi.height} px`),
        item('file-size', t('image.fileSize'), formatFileSize(roi.bytes)),
        item('id', t('image.id'), String(roi.id)),
      ]}
    />
  );
}
