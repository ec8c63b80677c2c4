import type { TelemetryTrend, TrendSeries } from '@ipp/contracts';
import { bucketXAxis, CHART_COLORS, type ChartOption } from '@/lib/chart-option';
import type { BucketAxis } from '@/lib/chart-time';

const GRID = { top: 36, left: 8, right: 16, bottom: 8 };

export interface TrendWords {
  mean: string;
  min: string;
  max: string;
  range: string;
  /** The unit written after values and as the axis name ('' for counts). */
  unit: string;
}

const formatter = (unit: string, decimals: number) => (value: unknown) =>
  typeof value === 'number' ? `${Number(value.toFixed(decimals))}${unit ? ` ${unit}` : ''}` : '—';

/**
 * One telemetry series over the period: its mean per bucket as a line inside the band from the bucket's minimum to
 * its maximum. Buckets without samples are gaps, never zeros. The tooltip lists maximum, mean and minimum.
 */
export function trendOption(
  axis: BucketAxis,
  series: TrendSeries,
  words: TrendWords,
  color: string,
  decimals: number,
): ChartOption {
  const quiet = { show: false };
  const hidden = { type: 'line' as const, symbol: 'none', lineStyle: { opacity: 0 }, connectNulls: false };
  const band = series.min.map((lo, i) => {
    const hi = series.max[i];
    return lo === null || hi === null || hi === undefined ? null : hi - lo;
  });
  return {
    color: [color],
    tooltip: { trigger: 'axis', valueFormatter: formatter(words.unit, decimals) },
    grid: GRID,
    xAxis: bucketXAxis(axis, false),
    yAxis: { type: 'value', name: words.unit, scale: true },
    series: [
      { ...hidden, name: words.range, data: [...series.min], stack: 'band', silent: true, tooltip: quiet },
      {
        ...hidden,
        name: words.range,
        data: band,
        stack: 'band',
        silent: true,
        tooltip: quiet,
        areaStyle: { color, opacity: 0.18 },
      },
      { ...hidden, name: words.max, data: [...series.max] },
      { type: 'line', name: words.mean, data: [...series.mean], symbolSize: 3, connectNulls: false, lineStyle: { width: 1.5 } },
      { ...hidden, name: words.min, data: [...series.min] },
    ],
  };
}

/** The wiper's reports per bucket: the share of samples in which it was cleaning and in which it reported a fault. */
export function wiperStatesOption(
  axis: BucketAxis,
  data: Pick<TelemetryTrend, 'wiper_cleaning_pct' | 'wiper_fault_pct'>,
  words: { cleaning: string; fault: string; unit: string },
): ChartOption {
  return {
    color: [CHART_COLORS[0], CHART_COLORS[2]],
    legend: { top: 0, left: 'center' },
    tooltip: { trigger: 'axis', valueFormatter: formatter(words.unit, 1) },
    grid: { ...GRID, top: 48 },
    xAxis: bucketXAxis(axis, false),
    yAxis: { type: 'value', name: words.unit, min: 0, max: 100 },
    series: [
      { type: 'line', name: words.cleaning, data: [...data.wiper_cleaning_pct], symbolSize: 3, connectNulls: false },
      { type: 'line', name: words.fault, data: [...data.wiper_fault_pct], symbolSize: 3, connectNulls: false },
    ],
  };
}

/** Telemetry samples received per bucket: a missing hour of reports shows as an empty bar. */
export function samplesOption(axis: BucketAxis, samples: readonly number[], name: string): ChartOption {
  return {
    color: [CHART_COLORS[9]],
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: GRID,
    xAxis: bucketXAxis(axis),
    yAxis: { type: 'value', name, minInterval: 1 },
    series: [{ type: 'bar', name, data: [...samples], barMaxWidth: 12 }],
  };
}
