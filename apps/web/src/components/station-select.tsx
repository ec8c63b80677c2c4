import type { Ipp } from '@ipp/contracts';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { stationName } from '@/lib/station-name';

interface StationSelectProps {
  stations: readonly Pick<Ipp, 'id' | 'site_name' | 'dev_id'>[];
  value: number | null;
  onChange: (id: number) => void;
  loading?: boolean;
}

/** Picks one station by name or site ID (search as you type). */
export function StationSelect({ stations, value, onChange, loading = false }: StationSelectProps) {
  const { t } = useTranslation();
  return (
    <Select<number>
      showSearch={{ optionFilterProp: 'label' }}
      value={value ?? undefined}
      onChange={onChange}
      loading={loading}
      placeholder={t('monitor.stationPlaceholder')}
      aria-label={t('monitor.station')}
      style={{ minWidth: 280, maxWidth: '100%' }}
      options={stations.map((station) => ({ value: station.id, label: stationName(station) }))}
      data-testid="station-select"
    />
  );
}
