import type { SiteRoi } from '@ipp/contracts';
import { Card, Col, Empty, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/echart/echart';
import { useFormatCount } from '@/hooks/use-format-count';
import { useTimeFormats } from '@/hooks/use-time-formats';
import { classPieOption, classSlices } from '@/lib/class-chart';
import { concentrationOption, hasConcentration, histogramOption, siteBucketAxis } from '../utils/site-charts';

/**
 * Histogram over time, the top-6 classes with "Others", and the concentration (ROIs per litre). `asOf` is when the
 * answer arrived: the current bucket holds data until then and is drawn as partial.
 */
export function SiteCharts({ data, asOf }: { data: SiteRoi; asOf?: number }) {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const formatCount = useFormatCount();
  const charts = useMemo(() => {
    const labels = siteBucketAxis(data, formats, asOf);
    const slices = classSlices(
      data.top_classes,
      { unclassified: t('monitor.unclassified'), others: t('chart.others') },
      data.others,
    );
    return {
      histogram: histogramOption(labels, data.buckets, t('chart.rois')),
      slices,
      pie: classPieOption(slices, t('chart.rois')),
      concentration: concentrationOption(labels, data.buckets, t('chart.concentration'), t('chart.perLitre')),
    };
  }, [data, formats, t, asOf]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <Card size="small" title={t('detail.histogram')}>
          <EChart
            option={charts.histogram}
            testId="detail-histogram"
            height={300}
            label={t('detail.histogramSummary', { total: formatCount(data.total), buckets: data.buckets.length })}
          />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card size="small" title={t('detail.classes')} style={{ height: '100%' }}>
          <EChart
            option={charts.pie}
            testId="detail-pie"
            height={320}
            label={charts.slices.map((slice) => `${slice.name}: ${slice.count}`).join(t('common.listSeparator'))}
          />
        </Card>
      </Col>
      <Col xs={24} xl={14}>
        <Card size="small" title={t('detail.concentration')} style={{ height: '100%' }}>
          {hasConcentration(data.buckets) ? (
            <EChart
              option={charts.concentration}
              testId="detail-concentration"
              height={320}
              label={t('detail.concentrationSummary')}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noVolume')} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
