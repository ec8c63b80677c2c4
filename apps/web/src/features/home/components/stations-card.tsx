import { StarFilled } from '@ant-design/icons';
import { stationTimeZone, type Ipp } from '@ipp/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Badge, Table, Tooltip } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Page } from '@/api/get-page';
import { DataCard } from '@/components/data-card';
import { VisuallyHidden } from '@/components/visually-hidden';
import { useFormatCount } from '@/hooks/use-format-count';
import { stationPreviewPath } from '@/lib/monitor-paths';
import { stationName } from '@/lib/station-name';
import { followedFirst } from '../utils/stations';
import { SelectIppButton } from './select-ipp-button';
import { TimeText } from '@/components/time-text';

interface StationsCardProps {
  ipps: UseQueryResult<Page<Ipp>>;
  followed: readonly number[];
}

/** The stations at a glance, followed ones first: state, today's images and the latest image's time. */
export function StationsCard({ ipps, followed }: StationsCardProps) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const followedSet = new Set(followed);
  return (
    <DataCard
      title={t('home.stations')}
      query={ipps}
      isEmpty={(page) => page.items.length === 0}
      emptyText={t('home.noStations')}
      extra={<SelectIppButton />}
      testId="home-stations"
    >
      {(page) => (
        <Table<Ipp>
          rowKey="id"
          size="small"
          dataSource={followedFirst(page.items, followed)}
          pagination={{ pageSize: 8, hideOnSinglePage: true, size: 'small' }}
          scroll={{ x: 'max-content' }}
          onRow={(ipp) => ({ 'data-testid': `home-station-${ipp.dev_id}` }) as HTMLAttributes<HTMLElement>}
          columns={[
            {
              key: 'followed',
              width: 32,
              title: <VisuallyHidden>{t('home.followed')}</VisuallyHidden>,
              render: (_, ipp) =>
                followedSet.has(ipp.id) && (
                  <Tooltip title={t('home.followed')}>
                    <StarFilled style={{ color: '#d48806' }} aria-label={t('home.followed')} />
                  </Tooltip>
                ),
            },
            {
              key: 'station',
              title: t('monitor.station'),
              render: (_, ipp) => <Link to={stationPreviewPath(ipp.id)}>{stationName(ipp)}</Link>,
            },
            {
              key: 'online',
              title: t('monitor.status'),
              render: (_, ipp) => (
                <Badge
                  status={ipp.online ? 'success' : 'default'}
                  text={ipp.online ? t('monitor.online') : t('monitor.offline')}
                />
              ),
            },
            {
              key: 'today',
              title: t('monitor.todayImages'),
              align: 'right',
              render: (_, ipp) => formatCount(ipp.today_images),
            },
            {
              key: 'last',
              title: t('monitor.lastImage'),
              render: (_, ipp) => <TimeText at={ipp.last_image_at} stationZone={stationTimeZone(ipp)} />,
            },
          ]}
        />
      )}
    </DataCard>
  );
}
