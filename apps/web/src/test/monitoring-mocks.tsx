// Stand-ins for the canvas chart and the Leaflet map, which jsdom cannot draw. Use in a test file with
//   vi.mock('@/components/echart/echart', () => import('@/test/monitoring-mocks'));
//   vi.mock('@/components/station-map/station-map', () => import('@/test/monitoring-mocks'));
import type { EChartProps } from '@/components/echart/echart';
import type { MapStation } from '@/components/station-map/station-map';
import type { ChartOption } from '@/lib/chart-option';

/** The option each chart (by test id) was last drawn with. */
export const chartOptions = new Map<string, ChartOption>();

export function EChart({ option, label, testId }: EChartProps) {
  if (testId) chartOptions.set(testId, option);
  return <div role="img" aria-label={label} data-testid={testId} />;
}

/** The stations and tiles each map (by test id) was last drawn with. */
export const mapProps = new Map<string, { stations: readonly MapStation[]; tileUrl: string }>();

export function StationMap({ stations, tileUrl, testId }: { stations: readonly MapStation[]; tileUrl: string; testId?: string }) {
  if (testId) mapProps.set(testId, { stations, tileUrl });
  return (
    <ul data-testid={testId}>
      {stations.map((station) => (
        <li key={station.id} data-online={station.online}>
          {station.name}
        </li>
      ))}
    </ul>
  );
}
