import { ALARM_SEVERITIES, type AlarmSummary } from '@ipp/contracts';
import { Badge, Card, Divider, Empty, Flex, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAlarmSummary } from '@/api/get-alarm-summary';
import { LATEST_OPEN_ALARMS, useAlarms } from '@/api/get-alarms';
import { SEVERITY_COLOR } from '@/components/alarm-tags';
import { LoadFailed } from '@/components/load-failed';
import { OpenAlarmList } from '@/components/open-alarm-list';

interface CountProps {
  label: ReactNode;
  value: number | undefined;
  testId: string;
  /** Grid columns taken: the longer state words get two ("Acknowledged" would break in one). */
  span?: number;
}

function Count({ label, value, testId, span = 1 }: CountProps) {
  return (
    <Flex vertical style={{ minWidth: 0, gridColumn: `span ${span}` }} data-testid={testId}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Typography.Text strong style={{ fontSize: 20 }}>
        {value ?? '—'}
      </Typography.Text>
    </Flex>
  );
}

/** The active alarms by severity, then the acknowledged and the pending ones, in one grid of four columns. */
function AlarmCounts({ summary }: { summary: AlarmSummary | undefined }) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(4, minmax(0, 1fr))', gap: 8 }}>
      {ALARM_SEVERITIES.map((severity) => (
        <Count
          key={severity}
          label={<Badge color={SEVERITY_COLOR[severity]} text={t(`alarms.severity.${severity}`)} />}
          value={summary?.by_severity[severity]}
          testId={`home-alarms-${severity}`}
        />
      ))}
      <Count label={t('alarms.state.acknowledged')} value={summary?.acknowledged} testId="home-alarms-acknowledged" span={2} />
      <Count label={t('alarms.state.pending')} value={summary?.pending} testId="home-alarms-pending" span={2} />
    </div>
  );
}

/** Open alarms at a glance: how many of each weight, and the latest of them (the header bell's list), each a link. */
export function AlarmsCard() {
  const { t } = useTranslation();
  const summary = useAlarmSummary();
  const alarms = useAlarms(LATEST_OPEN_ALARMS);
  let list: ReactNode;
  if (alarms.isPending) list = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (alarms.isError && alarms.data === undefined)
    list = <LoadFailed error={alarms.error} onRetry={() => void alarms.refetch()} />;
  else if (alarms.data.items.length === 0)
    list = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.latest.none')} />;
  else
    list = (
      <>
        <OpenAlarmList alarms={alarms.data.items} testId="home-alarms-list" />
        {alarms.data.total > alarms.data.items.length && (
          <Typography.Text type="secondary">
            {t('alarms.latest.shown', { shown: alarms.data.items.length, total: alarms.data.total })}
          </Typography.Text>
        )}
      </>
    );
  return (
    <Card
      size="small"
      title={t('alarms.latest.title')}
      extra={<Link to="/alarms">{t('alarms.latest.all')}</Link>}
      style={{ height: '100%' }}
      data-testid="home-alarms"
      aria-busy={alarms.isFetching || summary.isFetching}
    >
      <Typography.Text type="secondary" style={{ fontSize: '0.85em' }}>
        {t('alarms.latest.activeBySeverity')}
      </Typography.Text>
      <AlarmCounts summary={summary.data} />
      <Divider style={{ margin: '12px 0 4px' }} />
      {list}
    </Card>
  );
}
