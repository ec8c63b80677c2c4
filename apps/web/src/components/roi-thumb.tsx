import type { RoiSummary } from '@ipp/contracts';
import { Typography } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { imageUrl } from '@/api/client';
import { formatTime } from '@/lib/format';
import { imageDetailPath } from '@/lib/monitor-paths';

type ThumbRoi = Pick<RoiSummary, 'id' | 'thumb_url' | 'class_name' | 'roi_time' | 'site_name' | 'dev_id'>;

const PLACEHOLDER: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  background: '#f5f5f5',
  color: 'rgba(0, 0, 0, 0.6)',
  fontSize: 12,
  textAlign: 'center',
};

/** One ROI thumbnail with its class; a link (keyboard and new-tab friendly) to the image detail. */
export function RoiThumb({ roi, size = 112 }: { roi: ThumbRoi; size?: number }) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const className = roi.class_name ?? t('monitor.unclassified');
  const description = `${className} · ${roi.site_name || roi.dev_id} · ${formatTime(roi.roi_time)}`;
  return (
    <Link
      to={imageDetailPath(roi.id)}
      title={description}
      data-testid={`roi-thumb-${roi.id}`}
      style={{ display: 'inline-flex', flexDirection: 'column', gap: 4, width: size }}
    >
      {broken ? (
        <span style={{ ...PLACEHOLDER, width: size, height: size }}>{t('monitor.noImage')}</span>
      ) : (
        <img
          src={imageUrl(roi.thumb_url)}
          alt={description}
          loading="lazy"
          width={size}
          height={size}
          onError={() => setBroken(true)}
          style={{ objectFit: 'contain', background: '#f5f5f5', borderRadius: 4 }}
        />
      )}
      <Typography.Text ellipsis style={{ width: size, fontSize: 12 }}>
        {className}
      </Typography.Text>
    </Link>
  );
}
