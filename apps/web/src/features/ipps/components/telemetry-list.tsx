import { stationTimeZone } from '@ipp/contracts';
import type { Ipp } from '@ipp/contracts';
import { Descriptions, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { imageUrl } from '@/api/client';
import { useFormatCount } from '@/hooks/use-format-count';
import { formatMeasured, NONE } from '@/lib/measured';
import { imageDetailPath } from '@/lib/monitor-paths';
import { RECORD_TEST_IDS, TELEMETRY_SECTIONS, type RecordKey, type TelemetrySection } from '../utils/telemetry';
import { IppStatusBadge } from './ipp-status-badge';
import { TimeText } from '@/components/time-text';
import { formatTimeWithZone } from '@/lib/time-zones';

const THUMB = 64;

function RecordValue({ name, ipp }: { name: RecordKey; ipp: Ipp }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  switch (name) {
    case 'online':
      return <IppStatusBadge ipp={ipp} />;
    case 'online_hours':
      return <>{t('ipps.hoursValue', { value: ipp.online_hours.toFixed(1) })}</>;
    case 'last_online':
      return <TimeText at={ipp.last_online_at} stationZone={stationTimeZone(ipp)} />;
    case 'images_today':
      return <>{formatCount(ipp.today_images)}</>;
    case 'images_total':
      return <>{formatCount(ipp.total_images)}</>;
    case 'last_update':
      return <TimeText at={ipp.last_image_at} stationZone={stationTimeZone(ipp)} />;
    case 'current_image':
      return ipp.latest_roi ? (
        <Link to={imageDetailPath(ipp.latest_roi.id)} aria-label={t('ipps.openCurrentImage')}>
          <img
            src={imageUrl(ipp.latest_roi.thumb_url)}
            alt={t('ipps.telemetry.current_image')}
            width={THUMB}
            height={THUMB}
            style={{ objectFit: 'contain', background: '#f5f5f5', borderRadius: 4 }}
          />
        </Link>
      ) : (
        <>{NONE}</>
      );
  }
}

/** Read-only values of one form section: the instrument's state and its latest telemetry, with units. */
export function TelemetryList({ section, ipp }: { section: TelemetrySection; ipp: Ipp | undefined }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const items = TELEMETRY_SECTIONS[section];
  const hasMeasured = items.some((entry) => entry.kind === 'measured');
  const measured = ipp?.measured ?? null;

  let extra: ReactNode = null;
  if (hasMeasured && !measured) extra = t('ipps.telemetryPending');
  else if (hasMeasured && measured && section === 'general')
    extra = t('ipps.measuredAt', { time: formatTimeWithZone(measured.at) });

  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, xl: 3 }}
      title={<Typography.Text type="secondary">{t('ipps.measured')}</Typography.Text>}
      extra={extra && <Typography.Text type="secondary">{extra}</Typography.Text>}
      items={items.map((entry) => {
        if (entry.kind === 'record') {
          return {
            key: entry.key,
            label: t(`ipps.telemetry.${entry.key}`),
            children: (
              <span data-testid={RECORD_TEST_IDS[entry.key]}>{ipp ? <RecordValue name={entry.key} ipp={ipp} /> : NONE}</span>
            ),
          };
        }
        let text = formatMeasured(entry.key, measured?.[entry.key], { t, formatCount });
        // Before the first sample, the record's own wiper status (if any) is better than nothing.
        if (entry.key === 'wiper_state' && text === NONE && ipp?.wiper_status) text = ipp.wiper_status;
        return {
          key: entry.key,
          label: t(`measured.label.${entry.key}`),
          children: <span data-testid={`ipp-measured-${entry.key}`}>{text}</span>,
        };
      })}
    />
  );
}
