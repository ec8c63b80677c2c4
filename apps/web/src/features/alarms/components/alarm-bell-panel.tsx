import type { Alarm, AlarmSummary } from '@ipp/contracts';
import { Button, Empty, Flex, Spin, Typography } from 'antd';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LATEST_OPEN_ALARMS, useAlarms } from '@/api/get-alarms';
import { LoadFailed } from '@/components/load-failed';
import { OpenAlarmList } from '@/components/open-alarm-list';
import { ruleText, valueText } from './alarm-text';

interface AlarmBellPanelProps {
  summary: AlarmSummary | undefined;
  onNavigate: () => void;
  onAcknowledge: (alarm: Alarm) => void;
}

/** The bell's drop-down: the latest open alarms, heaviest first, each to acknowledge or open; all of them on /alarms. */
export function AlarmBellPanel({ summary, onNavigate, onAcknowledge }: AlarmBellPanelProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const alarms = useAlarms(LATEST_OPEN_ALARMS);
  // The drop-down lies at the end of the page: without this, Tab from the bell would never reach it.
  useEffect(() => panel.current?.focus(), []);
  const items = alarms.data?.items ?? [];
  const total = alarms.data?.total ?? 0;

  let body;
  if (alarms.isPending) body = <Spin style={{ display: 'block', padding: 24 }} aria-label={t('common.loading')} />;
  else if (alarms.isError) body = <LoadFailed error={alarms.error} onRetry={() => void alarms.refetch()} />;
  else if (items.length === 0)
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.latest.none')} data-testid="alarm-bell-empty" />;
  else
    body = (
      <OpenAlarmList
        alarms={items}
        testId="alarm-bell-list"
        onNavigate={onNavigate}
        detail={(alarm) => (
          <>
            {ruleText(t, alarm)}
            {alarm.value !== null && (
              <>
                {' · '}
                <span style={{ whiteSpace: 'nowrap' }}>{t('alarms.latest.reading', { value: valueText(t, alarm) })}</span>
              </>
            )}
          </>
        )}
        action={(alarm, describedBy) =>
          alarm.state === 'active' && (
            <Button
              size="small"
              onClick={() => onAcknowledge(alarm)}
              aria-describedby={describedBy}
              data-testid={`alarm-bell-ack-${alarm.id}`}
            >
              {t('alarms.acknowledge')}
            </Button>
          )
        }
      />
    );

  return (
    <div
      ref={panel}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      style={{ width: 400, maxWidth: 'calc(100vw - 32px)', outline: 'none' }}
      data-testid="alarm-bell-panel"
    >
      <Flex vertical gap={2} style={{ marginBottom: 8 }}>
        <Typography.Text strong id={titleId}>
          {t('alarms.latest.title')}
        </Typography.Text>
        {summary && (
          <Typography.Text type="secondary" data-testid="alarm-bell-counts">
            {t('alarms.latest.counts', summary)}
          </Typography.Text>
        )}
      </Flex>
      <div style={{ maxHeight: '60vh', overflowY: 'auto' }}>{body}</div>
      <Flex justify="space-between" align="center" gap="small" wrap style={{ marginTop: 8 }}>
        <Link to="/alarms" onClick={onNavigate} data-testid="alarm-bell-all">
          {t('alarms.latest.all')}
        </Link>
        {total > items.length && (
          <Typography.Text type="secondary">{t('alarms.latest.shown', { shown: items.length, total })}</Typography.Text>
        )}
      </Flex>
    </div>
  );
}
