import { Alert, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DataCard } from '@/components/data-card';
import { RoiGrid } from '@/components/roi-grid';
import { useFormatCount } from '@/hooks/use-format-count';
import { useWall } from '../api/get-wall';

/** The latest favourite ROIs; a warning once there are more than the wall shows. */
export function WallCard() {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const wall = useWall();
  const data = wall.data;
  return (
    <DataCard
      title={t('home.wall')}
      query={wall}
      extra={
        data && (
          <Typography.Text type="secondary">
            {t('home.wallCount', { shown: formatCount(data.items.length), total: formatCount(data.total) })}
          </Typography.Text>
        )
      }
      testId="home-wall-card"
    >
      {(loaded) => (
        <Flex vertical gap="middle">
          {loaded.total > loaded.max && (
            <Alert
              type="warning"
              showIcon
              title={t('home.wallWarning', { max: formatCount(loaded.max), total: formatCount(loaded.total) })}
              data-testid="home-wall-warning"
            />
          )}
          <RoiGrid rois={loaded.items} testId="home-wall" />
        </Flex>
      )}
    </DataCard>
  );
}
