import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LazyWidgetFrame } from '@/components/lazy-widget/lazy-widget-frame';
import { onceLoader, useLazyWidget } from '@/components/lazy-widget/use-lazy-widget';
import { stationPreviewPath } from '@/lib/monitor-paths';
import type * as LeafletMapModule from './leaflet-map';
import { placedStations, type MapLabels, type MapStation } from './markers';

export type { MapStation } from './markers';

const loadMapModule = onceLoader<typeof LeafletMapModule>(() => import('./leaflet-map'));

interface StationMapProps {
  stations: readonly MapStation[];
  /** Tile URL template with {z}/{x}/{y}; '' draws the packaged outline only. */
  tileUrl: string;
  testId?: string;
  height?: number;
}

/**
 * Stations on a world map (Leaflet): a dot per station with coordinates, green online and grey offline, whose
 * popup links to the station preview. The packaged world outline is always drawn under the tiles.
 */
export function StationMap({ stations, tileUrl, testId, height = 360 }: StationMapProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { container, widget, version, failed, retry } = useLazyWidget(
    loadMapModule,
    ({ createStationMap }, element) => createStationMap(element),
    [],
  );

  const labels = useMemo<MapLabels>(
    () => ({ online: t('monitor.online'), offline: t('monitor.offline'), open: t('monitor.openPreview') }),
    [t],
  );
  const placed = placedStations(stations);
  const online = placed.filter((station) => station.online).length;

  useEffect(() => {
    widget.current?.setTiles(tileUrl);
  }, [tileUrl, version, widget]);

  useEffect(() => {
    widget.current?.setStations(stations, labels, stationPreviewPath, (id) => void navigate(stationPreviewPath(id)));
  }, [stations, labels, navigate, version, widget]);

  return (
    <LazyWidgetFrame
      height={height}
      loading={version === 0}
      failed={failed}
      failedText={t('monitor.mapLoadFailed')}
      onRetry={retry}
      overlayZIndex={1000}
    >
      <div
        ref={container}
        role="region"
        aria-label={t('monitor.mapSummary', { count: placed.length, online })}
        data-testid={testId}
        data-stations={placed.length}
        style={{ width: '100%', height: '100%' }}
      />
    </LazyWidgetFrame>
  );
}
