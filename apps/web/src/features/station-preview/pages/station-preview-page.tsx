import { BarChartOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Flex, Result, Row, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRoi30 } from '@/api/get-roi30';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { RoiGrid } from '@/components/roi-grid';
import { StationSelect } from '@/components/station-select';
import { useStationParam } from '@/hooks/use-station-param';
import { stationDetailPath } from '@/lib/monitor-paths';
import type { PageProps } from '@/lib/route-meta';
import { stationName } from '@/lib/station-name';
import { useLatestRois } from '../api/get-latest-rois';
import { PreviewCharts } from '../components/preview-charts';
import { StationFacts } from '../components/station-facts';

/** Station preview (spec §2): one station's last 30 days, its state and its latest images. */
export function StationPreviewPage({ meta }: PageProps) {
  const { t } = useTranslation();
  const { ipps, stations, station, selectedId, select } = useStationParam(meta.path);
  const roi30 = useRoi30(station?.id, { enabled: station !== undefined });
  const latest = useLatestRois(station?.id);

  const header = (
    <Flex wrap gap="small" align="center">
      <StationSelect stations={stations} value={selectedId} onChange={select} loading={ipps.isPending} />
      {station && (
        <Link to={stationDetailPath(station.id)} data-testid="preview-detail-link">
          <BarChartOutlined /> {t('preview.toDetail')}
        </Link>
      )}
    </Flex>
  );

  let body;
  if (ipps.isPending) body = <PageLoading />;
  else if (ipps.isError && !ipps.data) body = <LoadFailed error={ipps.error} onRetry={() => void ipps.refetch()} />;
  else if (stations.length === 0) body = <Empty description={t('monitor.noStations')} data-testid="preview-no-stations" />;
  else if (!station) body = <Result status="404" title={t('monitor.stationNotFound')} data-testid="preview-not-found" />;
  else {
    const data = roi30.data;
    const stationData = data?.stations.find((candidate) => candidate.id === station.id);
    let charts;
    if (roi30.isPending) charts = <Skeleton active paragraph={{ rows: 8 }} />;
    else if (roi30.isError && !data) charts = <LoadFailed error={roi30.error} onRetry={() => void roi30.refetch()} />;
    else if (!data || !stationData) charts = <Empty description={t('monitor.noData')} data-testid="preview-empty" />;
    else charts = <PreviewCharts data={data} station={stationData} asOf={roi30.dataUpdatedAt} />;

    body = (
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <StationFacts ipp={station} />
        </Col>
        <Col xs={24} xl={16}>
          {charts}
        </Col>
        <Col xs={24}>
          <Card size="small" title={t('preview.latest')}>
            {latest.isPending ? (
              <Skeleton active />
            ) : latest.isError && !latest.data ? (
              <LoadFailed error={latest.error} onRetry={() => void latest.refetch()} />
            ) : (
              <RoiGrid rois={latest.data ?? []} testId="preview-latest" />
            )}
          </Card>
        </Col>
      </Row>
    );
  }

  return (
    <Flex vertical gap="middle">
      <Card size="small">
        <Flex wrap gap="small" justify="space-between" align="center">
          <Typography.Title level={5} style={{ margin: 0 }}>
            {station ? t('preview.title', { station: stationName(station) }) : t('route.ippView')}
          </Typography.Title>
          {header}
        </Flex>
      </Card>
      {body}
    </Flex>
  );
}
