import type { Roi24, Roi30 } from '@ipp/contracts';
import { CHART_COLORS, GRID_UNDER_LEGEND, LEGEND_TOP, type ChartOption } from '@/lib/chart-option';
import { bucketLabels, bucketStarts, type TimeFormats } from '@/lib/chart-time';
import { stationName } from '@/lib/station-name';

const longest = (series: readonly (readonly unknown[])[]) => series.reduce((most, data) => Math.max(most, data.length), 0);

/** No station captured anything in the last 24 hours. */
export function roi24IsEmpty(data: Roi24): boolean {
  return data.stations.every((station) => station.counts.every((count) => count === 0));
}

export function roi24Total(data: Roi24): number {
  return data.stations.reduce((sum, station) => sum + station.counts.reduce((a, b) => a + b, 0), 0);
}

/** ROIs per hour, one stacked bar series per station (followed stations first, as the server orders them). */
export function roi24Option(data: Roi24, formats: TimeFormats, axisName: string): ChartOption {
  const count = longest(data.stations.map((station) => station.counts));
  return {
    color: [...CHART_COLORS],
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { ...LEGEND_TOP },
    grid: { ...GRID_UNDER_LEGEND },
    xAxis: { type: 'category', data: bucketLabels(bucketStarts(data.start, data.bucket_ms, count), data.bucket_ms, formats) },
    yAxis: { type: 'value', name: axisName, minInterval: 1 },
    series: data.stations.map((station) => ({
      type: 'bar',
      stack: 'rois',
      name: stationName(station),
      emphasis: { focus: 'series' },
      data: [...station.counts],
    })),
  };
}

/** No station reported an internal temperature in the 30 days. */
export function temp30IsEmpty(data: Roi30): boolean {
  return data.stations.every((station) => station.temperature_c.every((value) => value === null));
}

/** Daily mean internal temperature, one line per station; days without samples stay gaps. */
export function temp30Option(data: Roi30, formats: TimeFormats, unit: string): ChartOption {
  const count = longest(data.stations.map((station) => station.temperature_c));
  return {
    color: [...CHART_COLORS],
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? `${value.toFixed(1)} ${unit}` : '—'),
    },
    legend: { ...LEGEND_TOP },
    grid: { ...GRID_UNDER_LEGEND },
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: bucketLabels(bucketStarts(data.start, data.bucket_ms, count), data.bucket_ms, formats),
    },
    yAxis: { type: 'value', name: unit, scale: true },
    series: data.stations.map((station) => ({
      type: 'line',
      name: stationName(station),
      connectNulls: false,
      showSymbol: true,
      symbolSize: 4,
      data: [...station.temperature_c],
    })),
  };
}
