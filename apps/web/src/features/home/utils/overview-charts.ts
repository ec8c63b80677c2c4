import type { Roi24, Roi30 } from '@ipp/contracts';
import {
  bucketXAxis,
  CHART_COLORS,
  GRID_UNDER_LEGEND,
  LEGEND_TOP,
  partialBars,
  partialLine,
  type ChartOption,
} from '@/lib/chart-option';
import { bucketAxis, bucketStarts, type TimeFormats } from '@/lib/chart-time';
import { stationName } from '@/lib/station-name';

const longest = (series: readonly (readonly unknown[])[]) => series.reduce((most, data) => Math.max(most, data.length), 0);

/** No station captured anything in the last 24 hours. */
export function roi24IsEmpty(data: Roi24): boolean {
  return data.stations.every((station) => station.counts.every((count) => count === 0));
}

export function roi24Total(data: Roi24): number {
  return data.stations.reduce((sum, station) => sum + station.counts.reduce((a, b) => a + b, 0), 0);
}

/**
 * ROIs per hour, one stacked bar series per station (followed stations first, as the server orders them). The
 * current hour, read at `asOf`, is still filling: its bars are drawn lighter and hatched.
 */
export function roi24Option(data: Roi24, formats: TimeFormats, axisName: string, asOf?: number): ChartOption {
  const count = longest(data.stations.map((station) => station.counts));
  const axis = bucketAxis(bucketStarts(data.start, data.bucket_ms, count), data.bucket_ms, formats, asOf);
  return {
    color: [...CHART_COLORS],
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { ...LEGEND_TOP },
    grid: { ...GRID_UNDER_LEGEND },
    xAxis: bucketXAxis(axis),
    yAxis: { type: 'value', name: axisName, minInterval: 1 },
    series: data.stations.map((station) => ({
      type: 'bar',
      stack: 'rois',
      name: stationName(station),
      emphasis: { focus: 'series' },
      data: partialBars(station.counts, axis),
    })),
  };
}

/** No station reported an internal temperature in the 30 days. */
export function temp30IsEmpty(data: Roi30): boolean {
  return data.stations.every((station) => station.temperature_c.every((value) => value === null));
}

/**
 * Daily mean internal temperature, one line per station; days without samples stay gaps. Today, read at `asOf`, is
 * a mean of the hours so far (in a daily cycle, not the day's): its point is hollow and reached by a dotted line.
 */
export function temp30Option(data: Roi30, formats: TimeFormats, unit: string, asOf?: number): ChartOption {
  const count = longest(data.stations.map((station) => station.temperature_c));
  const axis = bucketAxis(bucketStarts(data.start, data.bucket_ms, count), data.bucket_ms, formats, asOf);
  return {
    color: [...CHART_COLORS],
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? `${value.toFixed(1)} ${unit}` : '—'),
    },
    legend: { ...LEGEND_TOP },
    grid: { ...GRID_UNDER_LEGEND },
    xAxis: bucketXAxis(axis, false),
    yAxis: { type: 'value', name: unit, scale: true },
    series: data.stations.flatMap((station) =>
      partialLine(
        { type: 'line', name: stationName(station), connectNulls: false, showSymbol: true, symbolSize: 4 },
        station.temperature_c,
        axis,
      ),
    ),
  };
}
