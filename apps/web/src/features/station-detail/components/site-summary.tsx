import type { SiteRoi } from '@ipp/contracts';
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatCount } from '@/hooks/use-format-count';
import { formatTime } from '@/lib/format';
import { meanConcentration, shownEnd } from '../utils/site-charts';
import { formatTimeWithZone } from '@/lib/time-zones';

/** The period's figures: ROIs, water sampled, mean concentration and the time range (until `asOf`, when read). */
export function SiteSummary({ data, asOf }: { data: SiteRoi; asOf?: number }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const mean = meanConcentration(data);
  const figure = (testId: string, title: string, value: string) => (
    <Col xs={12} lg={6}>
      <Statistic title={title} value={value} valueRender={() => <span data-testid={testId}>{value}</span>} />
    </Col>
  );
  return (
    <Card size="small">
      <Row gutter={[16, 16]}>
        {figure('detail-total', t('detail.total'), formatCount(data.total))}
        {figure('detail-volume', t('detail.volume'), `${data.volume_l.toFixed(2)} ${t('measured.unit.l')}`)}
        {figure(
          'detail-mean-concentration',
          t('detail.meanConcentration'),
          mean === null ? '—' : `${mean.toFixed(2)} ${t('chart.perLitre')}`,
        )}
        {figure('detail-range', t('detail.range'), `${formatTime(data.start)} – ${formatTimeWithZone(shownEnd(data, asOf))}`)}
      </Row>
    </Card>
  );
}
