import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/lib/format';
import { formatTimeIn, offsetLabel, viewerOffsetLabel, zoneOffsetMinutes } from '@/lib/time-zones';

/**
 * A time on screen with its zone (issue 23): the viewer's clock and its offset ("2026-11-27 13:07:55 UTC+8"); on hover,
 * the station's own clock (when the time is a station's) and UTC.
 */
export function TimeText({
  at,
  stationZone,
  testId,
}: {
  at: number | null | undefined;
  stationZone?: string | null;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (!at) return <span data-testid={testId}>—</span>;
  const title = (
    <div>
      {stationZone && (
        <div>
          {t('time.station', {
            time: formatTimeIn(at, stationZone),
            offset: offsetLabel(zoneOffsetMinutes(at, stationZone)),
            zone: stationZone.startsWith('Etc/') ? t('time.fromLongitude') : stationZone,
          })}
        </div>
      )}
      <div>{t('time.utc', { time: formatTimeIn(at, 'UTC') })}</div>
    </div>
  );
  return (
    <Tooltip title={title}>
      {/* The time keeps to one line; in a narrow cell its zone wraps under it instead of being cut off. */}
      <span data-testid={testId}>
        <span style={{ whiteSpace: 'nowrap' }}>{formatTime(at)}</span>{' '}
        <Typography.Text type="secondary" style={{ fontSize: '0.85em', whiteSpace: 'nowrap' }}>
          {viewerOffsetLabel(at)}
        </Typography.Text>
      </span>
    </Tooltip>
  );
}
