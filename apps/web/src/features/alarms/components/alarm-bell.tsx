import { BellOutlined } from '@ant-design/icons';
import { ALARM_SEVERITIES, type Alarm } from '@ipp/contracts';
import { Badge, Button, Popover, Spin, Tooltip } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmSummary } from '@/api/get-alarm-summary';
import { SEVERITY_COLOR } from '@/components/alarm-tags';

// Loaded when first opened: the bell itself comes with every page (its chunk's list rides in the shell).
const AlarmBellPanel = lazy(() => import('./alarm-bell-panel').then((m) => ({ default: m.AlarmBellPanel })));
const AcknowledgeModal = lazy(() => import('./acknowledge-modal').then((m) => ({ default: m.AcknowledgeModal })));

/**
 * The header's alarm count (active ones, in the colour of the heaviest; each severity and the acknowledged in the
 * hint), live through the event stream; a click opens the latest open alarms, to acknowledge or open one.
 */
export default function AlarmBell() {
  const { t } = useTranslation();
  const summary = useAlarmSummary();
  const [open, setOpen] = useState(false);
  const [acknowledging, setAcknowledging] = useState<Alarm | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const active = summary.data?.active ?? 0;
  const acknowledged = summary.data?.acknowledged ?? 0;
  const counts = summary.data?.by_severity ?? { critical: 0, major: 0, minor: 0, warning: 0 };
  const heaviest = ALARM_SEVERITIES.find((s) => counts[s] > 0);
  const hint = t('alarms.bellHint', { active, acknowledged, ...counts });
  const close = () => setOpen(false);
  return (
    <>
      {/* The hint on hover stays out of the way of the open drop-down. */}
      <Tooltip title={open ? null : hint}>
        <span>
          <Popover
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              // Escape or a click outside: the keyboard goes back where it was.
              if (!next) button.current?.focus();
            }}
            trigger="click"
            placement="bottomRight"
            arrow={false}
            destroyOnHidden
            content={
              <Suspense fallback={<Spin style={{ display: 'block', padding: 24, width: 400 }} />}>
                <AlarmBellPanel
                  summary={summary.data}
                  onNavigate={close}
                  onAcknowledge={(alarm) => {
                    close();
                    setAcknowledging(alarm);
                  }}
                />
              </Suspense>
            }
          >
            <Badge count={active} size="small" overflowCount={99} color={heaviest ? SEVERITY_COLOR[heaviest] : undefined}>
              <Button
                ref={button}
                type="text"
                icon={<BellOutlined />}
                aria-label={hint}
                aria-haspopup="dialog"
                aria-expanded={open}
                data-testid="alarm-bell"
                data-active={active}
                data-heaviest={heaviest ?? ''}
              />
            </Badge>
          </Popover>
        </span>
      </Tooltip>
      {acknowledging && (
        <Suspense fallback={null}>
          <AcknowledgeModal
            alarm={acknowledging}
            onClose={() => {
              setAcknowledging(null);
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
