import { TREND_GROUPS, type Period, type TelemetryTrend, type TrendGroup, type TrendSeriesKey } from '@ipp/contracts';
import { Card, Col, Empty, Flex, Row, Segmented, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/echart/echart';
import { LoadFailed } from '@/components/load-failed';
import { useTimeFormats } from '@/hooks/use-time-formats';
import { CHART_COLORS } from '@/lib/chart-option';
import { formatTimeWithZone } from '@/lib/time-zones';
import { MEASURED_FIELDS } from '@/lib/measured';
import { useTelemetryTrend } from '../api/get-telemetry-trend';
import { siteBucketAxis } from '../utils/site-charts';
import { samplesOption, trendOption, wiperStatesOption } from '../utils/trend-charts';

const GROUPS = Object.keys(TREND_GROUPS) as TrendGroup[];

/**
 * Engineering trends (issue 23): the station's telemetry over the page's period, one group of series at a time
 * (environment, computer, boards, UV-C, wiper, sampling), each series as its mean per bucket inside its min–max band.
 * The answer comes from the telemetry rollups and follows the station live (a report marks it stale).
 */
export function TrendsCard({ devId, period }: { devId: string; period: Period }) {
  const { t } = useTranslation();
  const [group, setGroup] = useState<TrendGroup>('environment');
  const trend = useTelemetryTrend(devId, period);
  const data = trend.data;

  let content;
  if (trend.isPending) content = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (trend.isError && !data) content = <LoadFailed error={trend.error} onRetry={() => void trend.refetch()} />;
  else if (data && data.samples.every((n) => n === 0))
    content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('trends.noTelemetry')} data-testid="trends-empty" />;
  else if (data) content = <TrendCharts data={data} group={group} asOf={trend.dataUpdatedAt} />;

  return (
    <Card
      size="small"
      title={t('trends.title')}
      data-testid="trends-card"
      extra={
        data && (
          <Typography.Text type="secondary" data-testid="trends-updated">
            {t('trends.updated', { time: formatTimeWithZone(trend.dataUpdatedAt) })}
          </Typography.Text>
        )
      }
    >
      <Flex vertical gap="middle">
        <div style={{ overflowX: 'auto' }}>
          <Segmented<TrendGroup>
            value={group}
            onChange={setGroup}
            options={GROUPS.map((g) => ({ value: g, label: t(`trends.group.${g}`), 'data-testid': `trends-group-${g}` }))}
          />
        </div>
        {content}
      </Flex>
    </Card>
  );
}

function TrendCharts({ data, group, asOf }: { data: TelemetryTrend; group: TrendGroup; asOf: number }) {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const charts = useMemo(() => {
    const axis = siteBucketAxis(
      { buckets: data.samples.map((_, i) => ({ start: data.start + i * data.bucket_ms })), bucket_ms: data.bucket_ms },
      formats,
      asOf,
    );
    const keys: readonly TrendSeriesKey[] = TREND_GROUPS[group];
    const out = keys.map((key, index) => {
      const field = MEASURED_FIELDS[key];
      const unit = field.unit ? t(`measured.unit.${field.unit}`) : '';
      const series = data.series.find((s) => s.key === key)!;
      return {
        key,
        title: t(`measured.label.${key}`),
        empty: series.mean.every((v) => v === null),
        option: trendOption(
          axis,
          series,
          { mean: t('trends.mean'), min: t('trends.min'), max: t('trends.max'), range: t('trends.range'), unit },
          CHART_COLORS[index % CHART_COLORS.length]!,
          field.decimals ?? 0,
        ),
      };
    });
    if (group === 'wiper')
      out.push({
        key: 'wiper_states' as TrendSeriesKey,
        title: t('trends.wiperStates'),
        empty: data.wiper_cleaning_pct.every((v) => v === null),
        option: wiperStatesOption(axis, data, {
          cleaning: t('trends.wiperCleaning'),
          fault: t('trends.wiperFault'),
          unit: t('measured.unit.pct'),
        }),
      });
    if (group === 'sampling')
      out.push({
        key: 'samples' as TrendSeriesKey,
        title: t('trends.samples'),
        empty: false,
        option: samplesOption(axis, data.samples, t('trends.samplesAxis')),
      });
    return out;
  }, [data, group, formats, asOf, t]);

  return (
    <Row gutter={[16, 16]}>
      {charts.map((chart) => (
        <Col key={chart.key} xs={24} xl={12}>
          <Typography.Text strong>{chart.title}</Typography.Text>
          {chart.empty ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('trends.notReported')} style={{ height: 220 }} />
          ) : (
            <EChart
              option={chart.option}
              testId={`trend-${chart.key}`}
              height={220}
              label={t('trends.chartLabel', { series: chart.title })}
            />
          )}
        </Col>
      ))}
    </Row>
  );
}
