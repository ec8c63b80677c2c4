import type { SiteBucket, SiteRoi } from '@ipp/contracts';
import {
  bucketXAxis,
  CHART_COLORS,
  linearTick,
  partialBars,
  partialCap,
  partialLine,
  type ChartOption,
} from '@/lib/chart-option';
import { bucketAxis, bucketLabels, type BucketAxis, type TimeFormats } from '@/lib/chart-time';

const GRID = { top: 40, left: 8, right: 16, bottom: 8 };

/** Axis labels of the histogram's buckets, as precise as their size needs (hours for short periods, days…). */
export function siteBucketLabels(data: Pick<SiteRoi, 'buckets' | 'bucket_ms'>, formats: TimeFormats): string[] {
  return bucketLabels(
    data.buckets.map((bucket) => bucket.start),
    data.bucket_ms,
    formats,
  );
}

/**
 * The histogram's axis: the period ends with the current bucket (hour or local day), read until `asOf` (when the
 * answer arrived) and marked partial.
 */
export function siteBucketAxis(
  data: { buckets: readonly { start: number }[]; bucket_ms: number },
  formats: TimeFormats,
  asOf?: number,
): BucketAxis {
  return bucketAxis(
    data.buckets.map((bucket) => bucket.start),
    data.bucket_ms,
    formats,
    asOf,
  );
}

/** ROIs per bucket over the period; the current bucket's bar, a count so far, lighter and hatched. */
export function histogramOption(axis: BucketAxis, buckets: readonly SiteBucket[], name: string): ChartOption {
  return {
    color: [CHART_COLORS[0]],
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { ...GRID, bottom: 40 },
    dataZoom: buckets.length > 60 ? [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }] : [],
    xAxis: bucketXAxis(axis),
    yAxis: { type: 'value', name, minInterval: 1 },
    series: [
      {
        type: 'bar',
        name,
        barMaxWidth: 24,
        data: partialBars(
          buckets.map((bucket) => bucket.count),
          axis,
        ),
      },
    ],
  };
}

/**
 * ROIs per litre of sampled water per bucket; buckets without sampled water are gaps, not zero. The current bucket
 * (so far) is a hollow point reached by a dotted segment.
 */
export function concentrationOption(axis: BucketAxis, buckets: readonly SiteBucket[], name: string, unit: string): ChartOption {
  const values = buckets.map((bucket) => bucket.concentration_per_l);
  // The hour so far does not set the scale (partialCap).
  const cap = partialCap(values, axis);
  return {
    color: [CHART_COLORS[4]],
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? `${value.toFixed(2)} ${unit}` : '—'),
    },
    grid: GRID,
    xAxis: bucketXAxis(axis, false),
    yAxis: { type: 'value', name: unit, max: cap, axisLabel: { formatter: linearTick } },
    series: partialLine(
      { type: 'line', name, connectNulls: false, symbolSize: 4, areaStyle: { opacity: 0.15 } },
      values,
      axis,
      cap,
    ),
  };
}

/**
 * Where the period's time range ends as shown: the range runs to the end of its current bucket (the next hour or
 * local midnight), but the data only reaches `asOf`, when it was read; a range that is over ends at its end.
 */
export function shownEnd(data: Pick<SiteRoi, 'start' | 'end'>, asOf?: number): number {
  return asOf !== undefined && asOf > data.start && asOf < data.end ? asOf : data.end;
}

/** ROIs per litre over the whole period; null when no water was sampled. */
export function meanConcentration(data: Pick<SiteRoi, 'total' | 'volume_l'>): number | null {
  return data.volume_l > 0 ? data.total / data.volume_l : null;
}

export const hasConcentration = (buckets: readonly SiteBucket[]) => buckets.some((bucket) => bucket.concentration_per_l !== null);
