import type { Completeness, Period } from '@ipp/contracts';
import { Card, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/echart/echart';
import { LoadFailed } from '@/components/load-failed';
import { useTimeFormats } from '@/hooks/use-time-formats';
import { formatTimeWithZone } from '@/lib/time-zones';
import { useCompleteness } from '../api/get-completeness';
import { siteBucketAxis } from '../utils/site-charts';
import { completenessOption, MISSING_BAND, OFFLINE_BAND } from '../utils/completeness-chart';

/**
 * Data completeness (issue 23): images received against the images the station made, per bucket of the page's period,
 * with the hours that lost images banded red and the hours offline grey, so a data manager sees missing hours at a
 * glance. Follows the station live (a report or an image marks it stale).
 */
export function CompletenessCard({ devId, period }: { devId: string; period: Period }) {
  const { t } = useTranslation();
  const query = useCompleteness(devId, period);
  const data = query.data;

  let content;
  if (query.isPending) content = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (query.isError && !data) content = <LoadFailed error={query.error} onRetry={() => void query.refetch()} />;
  else if (data && data.buckets.every((b) => b.online_s === 0 && b.received === 0 && b.expected === null))
    content = (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('completeness.noRecord')} data-testid="completeness-empty" />
    );
  else if (data) content = <CompletenessChart data={data} asOf={query.dataUpdatedAt} />;

  return (
    <Card
      size="small"
      title={t('completeness.title')}
      data-testid="completeness-card"
      extra={
        data && (
          <Typography.Text type="secondary" data-testid="completeness-updated">
            {t('trends.updated', { time: formatTimeWithZone(query.dataUpdatedAt) })}
          </Typography.Text>
        )
      }
    >
      {content}
    </Card>
  );
}

function CompletenessChart({ data, asOf }: { data: Completeness; asOf: number }) {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const option = useMemo(
    () =>
      completenessOption(siteBucketAxis(data, formats, asOf), data, {
        received: t('completeness.received'),
        missing: t('completeness.missing'),
        expected: t('completeness.expected'),
        axis: t('completeness.axis'),
        notCounted: t('completeness.notCounted'),
        frames: (frames, hours) => t('completeness.frames', { frames, hours }),
        hours: (h) => t('completeness.hours', h),
      }),
    [data, formats, asOf, t],
  );
  const { totals } = data;
  return (
    <Flex vertical gap="small">
      <Flex
        wrap
        gap="small"
        align="center"
        data-testid="completeness-totals"
        data-received={totals.received}
        data-expected={totals.expected ?? ''}
      >
        <Typography.Text>
          {totals.expected === null
            ? t('completeness.totalReceived', { received: totals.received.toLocaleString() })
            : t(totals.received_pct === null ? 'completeness.totalOfNone' : 'completeness.totalOf', {
                received: totals.received_counted.toLocaleString(),
                expected: totals.expected.toLocaleString(),
                pct: totals.received_pct,
              })}
        </Typography.Text>
        <Tag color={totals.missing_hours > 0 ? 'error' : 'success'} data-testid="completeness-missing-hours">
          {t('completeness.missingCount', { count: totals.missing_hours })}
        </Tag>
        <Tag data-testid="completeness-offline-hours">{t('completeness.offlineCount', { count: totals.offline_hours })}</Tag>
        <Typography.Text type="secondary">{t('completeness.samplingHours', { hours: totals.sampling_hours })}</Typography.Text>
      </Flex>
      <EChart option={option} testId="completeness-chart" height={240} label={t('completeness.chartLabel')} />
      <Flex wrap gap="middle" align="center">
        <Legend color={MISSING_BAND} text={t('completeness.missingHours')} />
        <Legend color={OFFLINE_BAND} text={t('completeness.offlineHours')} />
        <Typography.Text type="secondary">{t('completeness.note')}</Typography.Text>
      </Flex>
    </Flex>
  );
}

function Legend({ color, text }: { color: string; text: string }) {
  return (
    <Flex gap={6} align="center">
      <span aria-hidden style={{ width: 14, height: 10, background: color, display: 'inline-block', borderRadius: 2 }} />
      <Typography.Text type="secondary">{text}</Typography.Text>
    </Flex>
  );
}
