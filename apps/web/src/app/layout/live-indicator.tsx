import { Badge, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLiveState } from './use-live-events';

/** Whether the console hears of device reports as they happen (live) or only by its pages' polling (reconnecting). */
export function LiveIndicator() {
  const { t } = useTranslation();
  const { state, lastEventAt } = useLiveState();
  if (state === 'stopped') return null;
  const live = state === 'live';
  const hint = [
    live ? t('live.liveHint') : t('live.retryingHint'),
    lastEventAt ? t('live.lastEvent', { time: dayjs(lastEventAt).format('HH:mm:ss') }) : null,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Tooltip title={hint}>
      <span data-testid="live-indicator" data-state={state}>
        <Badge status={live ? 'success' : 'warning'} text={live ? t('live.live') : t('live.retrying')} />
      </span>
    </Tooltip>
  );
}
