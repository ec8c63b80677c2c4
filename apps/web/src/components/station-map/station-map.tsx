import { Button, Flex, Spin, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { loadWithRetry } from '@/lib/lazy-with-retry';
import { stationPreviewPath } from '@/lib/monitor-paths';
import type * as LeafletMapModule from './leaflet-map';
import { placedStations, type MapLabels, type MapStation } from './markers';

export type { MapStation } from './markers';

let loading: Promise<typeof LeafletMapModule> | null = null;

function loadMapModule(): Promise<typeof LeafletMapModule> {
  loading ??= loadWithRetry(() => import('./leaflet-map')).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

interface StationMapProps {
  stations: readonly MapStation[];
  /** Tile URL template with {z}/{x}/{y}; '' draws the packaged outline only. */
  tileUrl: string;
  testId?: string;
  height?: number;
}

const OVERLAY: CSSProperties = { position: 'absolute', inset: 0, zIndex: 1000 };

/**
 * Stations on a world map (Leaflet): a dot per station with coordinates, green online and grey offline, whose
 * popup links to the station preview. The packaged world outline is always drawn under the tiles.
 */
export function StationMap({ stations, tileUrl, testId, height = 360 }: StationMapProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const container = useRef<HTMLDivElement>(null);
  const view = useRef<LeafletMapModule.StationMapView | null>(null);
  const [instance, setInstance] = useState(0);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  const labels = useMemo<MapLabels>(
    () => ({ online: t('monitor.online'), offline: t('monitor.offline'), open: t('monitor.openPreview') }),
    [t],
  );
  const placed = placedStations(stations);
  const online = placed.filter((station) => station.online).length;

  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    let created: LeafletMapModule.StationMapView | undefined;
    loadMapModule().then(
      ({ createStationMap }) => {
        const element = container.current;
        if (cancelled || !element) return;
        created = createStationMap(element);
        view.current = created;
        observer = new ResizeObserver(() => created?.resize());
        observer.observe(element);
        setInstance((n) => n + 1);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      created?.destroy();
      view.current = null;
    };
  }, [attempt]);

  useEffect(() => {
    view.current?.setTiles(tileUrl);
  }, [tileUrl, instance]);

  useEffect(() => {
    view.current?.setStations(stations, labels, stationPreviewPath, (id) => void navigate(stationPreviewPath(id)));
  }, [stations, labels, navigate, instance]);

  return (
    <div style={{ position: 'relative', height }}>
      <div
        ref={container}
        role="region"
        aria-label={t('monitor.mapSummary', { count: placed.length, online })}
        data-testid={testId}
        data-stations={placed.length}
        style={{ width: '100%', height: '100%' }}
      />
      {instance === 0 && !failed && (
        <Flex align="center" justify="center" style={OVERLAY}>
          <Spin />
        </Flex>
      )}
      {failed && (
        <Flex vertical align="center" justify="center" gap="small" style={OVERLAY}>
          <Typography.Text type="secondary">{t('monitor.mapLoadFailed')}</Typography.Text>
          <Button
            onClick={() => {
              setFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            {t('common.retry')}
          </Button>
        </Flex>
      )}
    </div>
  );
}
