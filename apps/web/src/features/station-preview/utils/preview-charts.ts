import type { Roi30 } from '@ipp/contracts';
import {
  bucketXAxis,
  CHART_COLORS,
  GRID_UNDER_LEGEND,
  LEGEND_TOP,
  partialBars,
  partialLine,
  type ChartOption,
} from '@/lib/chart-option';
import { bucketAxis, bucketStarts, type BucketAxis, type TimeFormats } from '@/lib/chart-time';

export type Roi30Station = Roi30['stations'][number];

export interface EnvNames {
  mean: string;
  min: string;
  max: string;
  humidity: string;
  celsius: string;
  percent: string;
}

const GRID = { top: 40, left: 8, right: 16, bottom: 8 };

/**
 * Day labels of the 30 days, in the viewer's language; the last day is today, read until `asOf` (when the answer
 * arrived), and marked partial: "Today (so far, until 14:32)".
 */
export function dayAxis(
  data: Pick<Roi30, 'start' | 'bucket_ms'>,
  count: number,
  formats: TimeFormats,
  asOf?: number,
): BucketAxis {
  return bucketAxis(bucketStarts(data.start, data.bucket_ms, count), data.bucket_ms, formats, asOf);
}

const fixed = (digits: number, unit: string) => (value: unknown) =>
  typeof value === 'number' ? `${value.toFixed(digits)} ${unit}` : '—';

export const hasRois = (station: Roi30Station) => station.rois.some((count) => count > 0);
export const hasEnvironment = (station: Roi30Station) =>
  station.temperature_c.some((value) => value !== null) || station.humidity_pct.some((value) => value !== null);
export const hasVolume = (station: Roi30Station) => station.volume_l.some((value) => value > 0);

/** ROIs captured per day; today's bar, a count so far, lighter and hatched. */
export function dailyRoisOption(axis: BucketAxis, station: Roi30Station, name: string): ChartOption {
  return {
    color: [CHART_COLORS[0]],
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: GRID,
    xAxis: bucketXAxis(axis),
    yAxis: { type: 'value', name, minInterval: 1 },
    series: [{ type: 'bar', name, data: partialBars(station.rois, axis) }],
  };
}

/**
 * Internal temperature (daily mean with minimum and maximum) and humidity on a second axis. Today's values cover
 * the hours so far: hollow points reached by dotted segments.
 */
export function environmentOption(axis: BucketAxis, station: Roi30Station, names: EnvNames): ChartOption {
  const line = (name: string, data: readonly (number | null)[], color: string, dashed = false, yAxisIndex = 0) =>
    partialLine(
      {
        type: 'line',
        name,
        yAxisIndex,
        connectNulls: false,
        symbolSize: 4,
        itemStyle: { color },
        lineStyle: { color, width: dashed ? 1 : 2, type: dashed ? 'dashed' : 'solid' },
        tooltip: { valueFormatter: yAxisIndex === 0 ? fixed(1, names.celsius) : fixed(0, names.percent) },
      },
      data,
      axis,
    );
  return {
    tooltip: { trigger: 'axis' },
    legend: { ...LEGEND_TOP },
    grid: { ...GRID_UNDER_LEGEND, right: 8 },
    xAxis: bucketXAxis(axis, false),
    yAxis: [
      { type: 'value', name: names.celsius, scale: true },
      { type: 'value', name: names.percent, min: 0, max: 100, splitLine: { show: false } },
    ],
    series: [
      ...line(names.mean, station.temperature_c, CHART_COLORS[2]),
      ...line(names.min, station.temperature_min_c, CHART_COLORS[0], true),
      ...line(names.max, station.temperature_max_c, CHART_COLORS[1], true),
      ...line(names.humidity, station.humidity_pct, CHART_COLORS[3], false, 1),
    ],
  };
}

/** Water sampled per day, L; today's bar, a volume so far, lighter and hatched. */
export function volumeOption(axis: BucketAxis, station: Roi30Station, name: string, unit: string): ChartOption {
  return {
    color: [CHART_COLORS[3]],
    tooltip: { trigger: 'axis', valueFormatter: fixed(2, unit) },
    grid: GRID,
    xAxis: bucketXAxis(axis),
    yAxis: { type: 'value', name: unit },
    series: [{ type: 'bar', name, data: partialBars(station.volume_l, axis) }],
  };
}
