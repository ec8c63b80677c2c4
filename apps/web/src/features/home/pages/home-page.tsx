import { Col, Flex, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { useRoi30 } from '@/api/get-roi30';
import { useRoi24 } from '../api/get-roi24';
import { AlarmsCard } from '../components/alarms-card';
import { ClassCard } from '../components/class-card';
import { LogoPrompt } from '../components/logo-prompt';
import { Roi24Card } from '../components/roi24-card';
import { StationMapCard } from '../components/station-map-card';
import { StationsCard } from '../components/stations-card';
import { Temp30Card } from '../components/temp30-card';
import { WallCard } from '../components/wall-card';
import { WelcomeCard } from '../components/welcome-card';
import { useRefreshOnNewData } from '../hooks/use-refresh-on-new-data';
import { followedIds } from '../utils/stations';
import { formatTimeWithZone } from '@/lib/time-zones';

/**
 * System overview (spec §2): 24-hour and 30-day data, classes, the stations on a map, the open alarms and the favourites
 * wall.
 */
export function HomePage() {
  const { t } = useTranslation();
  const lastData = useRefreshOnNewData();
  const roi30 = useRoi30();
  const ipps = useIpps({ page: 1, limit: ALL_IPPS_LIMIT });
  // The same query as the 24-hour card (one request): it says which stations the user follows.
  const followed = followedIds(useRoi24().data);

  return (
    <Flex vertical gap="middle" data-testid="home-page">
      <LogoPrompt />
      <WelcomeCard
        extra={
          lastData !== undefined && (
            <Typography.Text type="secondary" data-testid="home-last-data">
              {lastData === null ? t('home.noDataYet') : t('home.lastData', { time: formatTimeWithZone(lastData) })}
            </Typography.Text>
          )
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Roi24Card />
        </Col>
        <Col xs={24} xl={12}>
          <Temp30Card roi30={roi30} />
        </Col>
        <Col xs={24} xl={8}>
          <ClassCard roi30={roi30} />
        </Col>
        <Col xs={24} xl={16}>
          <StationMapCard ipps={ipps} />
        </Col>
        <Col xs={24} xl={16}>
          <StationsCard ipps={ipps} followed={followed} />
        </Col>
        <Col xs={24} xl={8}>
          <AlarmsCard />
        </Col>
        <Col xs={24}>
          <WallCard />
        </Col>
      </Row>
    </Flex>
  );
}
