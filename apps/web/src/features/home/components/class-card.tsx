import type { Roi30 } from '@ipp/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataCard } from '@/components/data-card';
import { EChart } from '@/components/echart/echart';
import { classPieOption, classSlices } from '@/lib/class-chart';

/** Target classification: the share of each class over the 30 days, the top 6 and "Others". */
export function ClassCard({ roi30 }: { roi30: UseQueryResult<Roi30> }) {
  const { t } = useTranslation();
  const slices = useMemo(
    () => classSlices(roi30.data?.classes ?? [], { unclassified: t('monitor.unclassified'), others: t('chart.others') }),
    [roi30.data, t],
  );
  const option = useMemo(() => classPieOption(slices, t('chart.rois')), [slices, t]);
  return (
    <DataCard title={t('home.classes')} query={roi30} isEmpty={() => slices.length === 0} testId="home-classes">
      {() => (
        <EChart
          option={option}
          testId="home-class-chart"
          label={slices.map((slice) => `${slice.name}: ${slice.count}`).join(t('common.listSeparator'))}
        />
      )}
    </DataCard>
  );
}
