import type { Roi30 } from '@ipp/contracts';
import { Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/echart/echart';
import { useFormatCount } from '@/hooks/use-format-count';
import { useTimeFormats } from '@/hooks/use-time-formats';
import {
  dailyRoisOption,
  dayAxis,
  environmentOption,
  hasEnvironment,
  hasRois,
  hasVolume,
  volumeOption,
  type Roi30Station,
} from '../utils/preview-charts';
import { ChartCard } from './chart-card';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The station's last 30 days: ROIs per day, internal temperature and humidity, water sampled. `asOf` is when the
 * answer arrived: today holds data until then and is drawn as partial.
 */
export function PreviewCharts({ data, station, asOf }: { data: Roi30; station: Roi30Station; asOf?: number }) {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const formatCount = useFormatCount();
  const options = useMemo(() => {
    const labels = dayAxis(data, station.rois.length, formats, asOf);
    return {
      rois: dailyRoisOption(labels, station, t('chart.rois')),
      env: environmentOption(labels, station, {
        mean: t('chart.temperatureMean'),
        min: t('chart.temperatureMin'),
        max: t('chart.temperatureMax'),
        humidity: t('chart.humidity'),
        celsius: t('measured.unit.celsius'),
        percent: t('measured.unit.rh'),
      }),
      volume: volumeOption(labels, station, t('chart.volume'), t('measured.unit.l')),
    };
  }, [data, station, formats, t, asOf]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <ChartCard title={t('preview.dailyRois')} empty={!hasRois(station)}>
          <EChart
            option={options.rois}
            testId="preview-chart-rois"
            label={t('preview.roisSummary', { total: formatCount(sum(station.rois)), days: station.rois.length })}
          />
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title={t('preview.environment')} empty={!hasEnvironment(station)}>
          <EChart option={options.env} testId="preview-chart-env" label={t('preview.environmentSummary')} />
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard title={t('preview.volume')} empty={!hasVolume(station)}>
          <EChart
            option={options.volume}
            testId="preview-chart-volume"
            label={t('preview.volumeSummary', { total: sum(station.volume_l).toFixed(2) })}
          />
        </ChartCard>
      </Col>
    </Row>
  );
}
