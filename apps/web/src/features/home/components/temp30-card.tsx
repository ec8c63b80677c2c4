import type { Roi30 } from '@ipp/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataCard } from '@/components/data-card';
import { EChart } from '@/components/echart/echart';
import { useTimeFormats } from '@/hooks/use-time-formats';
import { temp30IsEmpty, temp30Option } from '../utils/overview-charts';

/** 30-day internal temperature: the daily mean of each station. */
export function Temp30Card({ roi30 }: { roi30: UseQueryResult<Roi30> }) {
  const { t } = useTranslation();
  const formats = useTimeFormats();
  const unit = t('measured.unit.celsius');
  // Today holds the hours until the answer arrived (dataUpdatedAt): drawn as partial.
  const asOf = roi30.dataUpdatedAt;
  const option = useMemo(() => roi30.data && temp30Option(roi30.data, formats, unit, asOf), [roi30.data, formats, unit, asOf]);
  return (
    <DataCard title={t('home.temp30')} query={roi30} isEmpty={temp30IsEmpty} testId="home-temp30">
      {(data) =>
        option && (
          <EChart
            option={option}
            testId="home-temp30-chart"
            label={t('home.temp30Summary', { stations: data.stations.length })}
          />
        )
      }
    </DataCard>
  );
}
