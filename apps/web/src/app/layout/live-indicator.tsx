import { useTranslation } from 'react-i18next';
import { useLiveState } from './use-live-events';

const two = (n: number) => String(n).padStart(2, '0');
/** HH:mm:ss in the viewer's zone (without dayjs, which the shell does not load). */
const clockTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

/**
 * Whether the console hears of device reports as they happen (live) or only by its pages' polling (reconnecting).
 * Plain markup with a native tooltip: the header is in the console's shell, whose size is budgeted.
 */
export function LiveIndicator() {
  const { t } = useTranslation();
  const { state, lastEventAt } = useLiveState();
  // Nothing while the first connection opens (a fraction of a second on every load): a label that flashes by says
  // nothing.
  if (state === 'stopped' || state === 'connecting') return null;
  const live = state === 'live';
  const hint = [
    live ? t('live.liveHint') : t('live.retryingHint'),
    lastEventAt ? t('live.lastEvent', { time: clockTime(lastEventAt) }) : null,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <span className="app-live" data-testid="live-indicator" data-state={state} title={hint} role="status">
      <span className={`app-live__dot ${live ? 'app-live__dot--on' : ''}`} aria-hidden="true" />
      {live ? t('live.live') : t('live.retrying')}
    </span>
  );
}
