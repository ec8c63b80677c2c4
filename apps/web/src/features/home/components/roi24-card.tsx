import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataCard } from '@/components/data-card';
import { EChart } from '@/components/echart/echart';
import { useFormatCount } from '@/hooks/use-format-count';
import { useTimeFormats } from '@/hooks/use-time-formats';
import { useRoi24 } from '../api/get-roi24';
import { roi24IsEmpty, roi24Option, roi24Total } from '../utils/overview-charts';

/** 24-hour data: ROIs per hour per station. */
export function Roi24Card() {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const formatCount = useFormatCount();
  const roi24 = useRoi24();
  // The current hour holds what arrived until the answer did (dataUpdatedAt): drawn as partial.
  const asOf = roi24.dataUpdatedAt;
  const option = useMemo(
    () => roi24.data && roi24Option(roi24.data, formats, t('chart.rois'), asOf),
    [roi24.data, formats, t, asOf],
  );
  return (
    <DataCard title={t('home.roi24')} query={roi24} isEmpty={roi24IsEmpty} testId="home-roi24">
      {(data) =>
        option && (
          <EChart
            option={option}
            testId="home-roi24-chart"
            label={t('home.roi24Summary', { total: formatCount(roi24Total(data)), stations: data.stations.length })}
          />
        )
      }
    </DataCard>
  );
}
