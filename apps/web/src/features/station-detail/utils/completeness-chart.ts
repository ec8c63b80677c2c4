import type { Completeness, CompletenessBucket } from '@ipp/contracts';
import { bucketXAxis, CHART_COLORS, LEGEND_TOP, type ChartOption } from '@/lib/chart-option';
import type { BucketAxis } from '@/lib/chart-time';

export const MISSING_COLOR = '#e5484d';
/** Bands behind the bars: hours missing images, hours offline. */
export const MISSING_BAND = 'rgba(229, 72, 77, 0.14)';
export const OFFLINE_BAND = 'rgba(120, 120, 120, 0.14)';

export interface CompletenessWords {
  received: string;
  missing: string;
  expected: string;
  axis: string;
  /** Tooltip lines. */
  notCounted: string;
  frames: (frames: string, hours: string) => string;
  hours: (counts: CompletenessBucket['hours']) => string;
}

/** What a bucket is drawn as: hours missing images first, then offline, else nothing behind it. */
export function bucketBand(bucket: CompletenessBucket): 'missing' | 'offline' | null {
  if (bucket.hours.missing > 0) return 'missing';
  if (bucket.hours.offline > 0 && bucket.hours.complete === 0 && bucket.hours.idle === 0) return 'offline';
  return null;
}

/** Images the station made that did not arrive (never negative: images sent twice or counted late do not cancel). */
export const missingOf = (bucket: CompletenessBucket) =>
  bucket.expected === null ? 0 : Math.max(0, Math.round(bucket.expected - bucket.received));

/**
 * Images received per bucket with the images that did not arrive stacked on them in red, so a bar's full height is
 * what the station made (the images expected). Buckets with hours missing images are banded red,
 * buckets only offline grey. The tooltip gives the bucket's frames expected and how its hours went.
 */
export function completenessOption(axis: BucketAxis, data: Completeness, words: CompletenessWords): ChartOption {
  const { buckets } = data;
  return {
    color: [CHART_COLORS[0], MISSING_COLOR],
    legend: { ...LEGEND_TOP, data: [words.received, words.missing] },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const first = (params as { dataIndex: number }[])[0];
        if (!first) return '';
        const bucket = buckets[first.dataIndex]!;
        const lines = [
          `${axis.labels[first.dataIndex] ?? ''}${axis.zone ? ` (${axis.zone})` : ''}`,
          `${words.received}: ${bucket.received}`,
          bucket.expected === null
            ? `${words.expected}: ${words.notCounted}`
            : `${words.expected}: ${Math.round(bucket.expected)} · ${words.missing}: ${missingOf(bucket)}`,
          words.frames(Math.round(bucket.frames_expected).toLocaleString(), (bucket.sampling_s / 3600).toFixed(1)),
          words.hours(bucket.hours),
        ];
        return lines.join('<br/>');
      },
    },
    grid: { top: 40, left: 8, right: 40, bottom: buckets.length > 60 ? 40 : 8, containLabel: true },
    dataZoom:
      buckets.length > 60
        ? [
            { type: 'inside', xAxisIndex: [0, 1] },
            { type: 'slider', xAxisIndex: [0, 1], height: 18, bottom: 8 },
          ]
        : [],
    // The bands are bars of their own hidden axes, full width and height: ECharts' markArea misplaces areas on a
    // zoomable category axis, and bars on the same axis would share the bucket's width with the images.
    xAxis: [bucketXAxis(axis), { ...bucketXAxis(axis), show: false }],
    yAxis: [
      { type: 'value', name: words.axis, minInterval: 1 },
      { type: 'value', min: 0, max: 1, show: false },
    ],
    series: [
      {
        type: 'bar',
        name: words.received,
        stack: 'images',
        data: buckets.map((b) => b.received),
        barMaxWidth: 14,
      },
      { type: 'bar', name: words.missing, stack: 'images', data: buckets.map(missingOf), barMaxWidth: 14 },
      {
        type: 'bar',
        name: 'bands',
        xAxisIndex: 1,
        yAxisIndex: 1,
        barWidth: '100%',
        silent: true,
        z: 0,
        tooltip: { show: false },
        data: buckets.map((bucket) => {
          const band = bucketBand(bucket);
          return band === null ? null : { value: 1, itemStyle: { color: band === 'missing' ? MISSING_BAND : OFFLINE_BAND } };
        }),
      },
    ],
  };
}
