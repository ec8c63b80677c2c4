import type { Ipp } from '@ipp/contracts';
import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTimeWithZone } from '@/lib/time-zones';

/** Online or offline, with the last time the instrument was seen as a tooltip. */
export function IppStatusBadge({ ipp }: { ipp: Pick<Ipp, 'dev_id' | 'online' | 'last_online_at'> }) {
  const { t } = useTranslation();
  const seen = ipp.last_online_at
    ? t('ipps.lastOnline', { time: formatTimeWithZone(ipp.last_online_at) })
    : t('ipps.neverOnline');
  return (
    <Tooltip title={seen}>
      <Badge
        status={ipp.online ? 'success' : 'default'}
        text={ipp.online ? t('ipps.online') : t('ipps.offline')}
        aria-label={`${ipp.online ? t('ipps.online') : t('ipps.offline')}, ${seen}`}
        data-testid={`ipp-status-${ipp.dev_id}`}
      />
    </Tooltip>
  );
}
