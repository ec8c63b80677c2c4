import type { Ipp } from '@ipp/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '@/api/get-page';
import { useSettingsInit } from '@/api/get-settings-init';
import { DataCard } from '@/components/data-card';
import { StationMap, type MapStation } from '@/components/station-map/station-map';
import { stationName } from '@/lib/station-name';

/** Where the stations are, coloured by state; tiles from the system configuration over the packaged outline. */
export function StationMapCard({ ipps }: { ipps: UseQueryResult<Page<Ipp>> }) {
  const { t } = useTranslation();
  const tileUrl = useSettingsInit().data?.map_tile_url ?? '';
  const items = ipps.data?.items;
  // Memoised: a new list would redraw the markers and close an open popup.
  const stations = useMemo<MapStation[]>(
    () =>
      (items ?? []).map((ipp) => ({
        id: ipp.id,
        name: stationName(ipp),
        latitude: ipp.latitude,
        longitude: ipp.longitude,
        online: ipp.online,
      })),
    [items],
  );
  const unplaced = stations.filter((station) => station.latitude === null || station.longitude === null).length;
  return (
    <DataCard
      title={t('home.map')}
      query={ipps}
      extra={unplaced > 0 && <Typography.Text type="secondary">{t('home.mapUnplaced', { count: unplaced })}</Typography.Text>}
      testId="home-map-card"
    >
      {() => <StationMap stations={stations} tileUrl={tileUrl} testId="home-map" />}
    </DataCard>
  );
}
