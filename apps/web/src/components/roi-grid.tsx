import type { RoiSummary } from '@ipp/contracts';
import { Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { RoiThumb } from './roi-thumb';

/** Thumbnails in rows; "No image resource" when there are none (spec §8). */
export function RoiGrid({ rois, testId }: { rois: readonly RoiSummary[]; testId?: string }) {
  const { t } = useTranslation();
  if (rois.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.noImage')} data-testid={testId} data-count={0} />;
  }
  return (
    <Flex wrap gap="middle" data-testid={testId} data-count={rois.length}>
      {rois.map((roi) => (
        <RoiThumb key={roi.id} roi={roi} />
      ))}
    </Flex>
  );
}
