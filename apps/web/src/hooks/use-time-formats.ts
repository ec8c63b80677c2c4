import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimeFormats } from '@/lib/chart-time';

/** Chart axis formats of the interface language. */
export function useTimeFormats(): TimeFormats {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      hour: t('chart.format.hour'),
      dayHour: t('chart.format.dayHour'),
      day: t('chart.format.day'),
      date: t('chart.format.date'),
      partial: {
        today: t('chart.partial.today'),
        soFar: (label: string, time: string) => t('chart.partial.soFar', { label, time }),
      },
    }),
    [t],
  );
}
