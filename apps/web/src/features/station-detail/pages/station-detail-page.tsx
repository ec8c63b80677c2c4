import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Result, Skeleton, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { StationSelect } from '@/components/station-select';
import { useStationParam } from '@/hooks/use-station-param';
import type { PageProps } from '@/lib/route-meta';
import { stationName } from '@/lib/station-name';
import { useSiteRoi } from '../api/get-site-roi';
import { DownloadButton } from '../components/download-button';
import { PeriodPicker } from '../components/period-picker';
import { CompletenessCard } from '../components/completeness-card';
import { CorrectedCountsCard } from '../components/corrected-counts-card';
import { EcologyCard } from '../components/ecology-card';
import { SiteCharts } from '../components/site-charts';
import { SiteSummary } from '../components/site-summary';
import { TrendsCard } from '../components/trends-card';
import type { Period } from '../utils/periods';

/**
 * Data detail (spec §2): one station over a chosen period — histogram, top classes, concentration, download; the
 * ecology products (concentration and biovolume per litre, NBSS) and the corrected abundance.
 */
export function StationDetailPage({ meta }: PageProps) {
  const { t } = useTranslation();
  const { ipps, stations, station, selectedId, select } = useStationParam(meta.path);
  const [period, setPeriod] = useState<Period>('24h');
  const site = useSiteRoi(station?.dev_id, period);

  let body;
  if (ipps.isPending) body = <PageLoading />;
  else if (ipps.isError && !ipps.data) body = <LoadFailed error={ipps.error} onRetry={() => void ipps.refetch()} />;
  else if (stations.length === 0) body = <Empty description={t('monitor.noStations')} />;
  else if (!station) body = <Result status="404" title={t('monitor.stationNotFound')} />;
  else if (site.isPending) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (site.isError && !site.data) body = <LoadFailed error={site.error} onRetry={() => void site.refetch()} />;
  else if (site.data) {
    body = (
      <Flex vertical gap="middle">
        <SiteSummary data={site.data} asOf={site.dataUpdatedAt} />
        {site.data.total === 0 ? (
          <Card size="small">
            <Empty description={t('monitor.noData')} data-testid="detail-empty" />
          </Card>
        ) : (
          <>
            <SiteCharts data={site.data} asOf={site.dataUpdatedAt} />
            <EcologyCard devId={site.data.dev_id} period={period} />
            <CorrectedCountsCard devId={site.data.dev_id} start={site.data.start} end={site.data.end} />
          </>
        )}
        <CompletenessCard devId={site.data.dev_id} period={period} />
        <TrendsCard devId={site.data.dev_id} period={period} />
      </Flex>
    );
  }

  return (
    <Flex vertical gap="middle">
      <Card size="small">
        <Flex vertical gap="small">
          <Flex wrap gap="small" justify="space-between" align="center">
            <Typography.Title level={5} style={{ margin: 0 }}>
              {station ? t('detail.title', { station: stationName(station) }) : t('route.ippViewDetail')}
            </Typography.Title>
            <Flex wrap gap="small" align="center">
              <StationSelect stations={stations} value={selectedId} onChange={select} loading={ipps.isPending} />
              <Tooltip title={t('detail.refresh')}>
                <Button
                  icon={<ReloadOutlined />}
                  aria-label={t('detail.refresh')}
                  loading={site.isFetching}
                  disabled={!station}
                  onClick={() => void site.refetch()}
                  data-testid="detail-refresh"
                />
              </Tooltip>
              {station && <DownloadButton devId={station.dev_id} period={period} />}
            </Flex>
          </Flex>
          <div style={{ overflowX: 'auto' }}>
            <PeriodPicker value={period} onChange={setPeriod} />
          </div>
        </Flex>
      </Card>
      {body}
    </Flex>
  );
}
