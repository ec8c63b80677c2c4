// Types only: option builders stay free of chart code, which loads lazily with lib/echarts.ts.
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

/** What an <EChart> accepts: exactly the series and components lib/echarts.ts registers. */
export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
>;

/** Tableau 10: distinguishable for the common colour-vision deficiencies and readable on white. */
export const CHART_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
] as const;

/**
 * A legend across the top and the axis names (ROIs, °C, %RH) above the plot each need their own band: the legend
 * takes the first 24 px, the axis names sit above the grid's top. With the grid at 40 px the legend covered them
 * (issue 20).
 */
export const LEGEND_TOP = { type: 'scroll', top: 0, left: 'center' } as const;
export const GRID_UNDER_LEGEND = { top: 64, left: 8, right: 16, bottom: 8 } as const;

/** Grey for the "Others" slice, so it never looks like one more class. */
export const OTHERS_COLOR = '#a0a0a0';

/** The most data points any series of the option has (what a test or a screen reader can be told). */
export function countPoints(option: ChartOption): number {
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  return series.reduce((most, item) => {
    const data = (item as { data?: unknown }).data;
    return Array.isArray(data) ? Math.max(most, data.length) : most;
  }, 0);
}

/** What chart-time's BucketAxis gives an option builder (kept structural so this module stays types-only). */
interface PartialAxis {
  labels: string[];
  partial: { index: number; short: string } | null;
  zone?: string;
}

/**
 * A category x axis of buckets. The partial bucket's category is its long label (the tooltip's title says "Today
 * (so far, until 14:32)"), and the axis writes it short ("Today"). The tooltip's title names the viewer's zone.
 */
export function bucketXAxis(axis: PartialAxis, boundaryGap = true) {
  const { partial, zone } = axis;
  return {
    type: 'category' as const,
    boundaryGap,
    data: axis.labels,
    axisLabel: partial ? { formatter: (value: string, index: number) => (index === partial.index ? partial.short : value) } : {},
    ...(zone ? { axisPointer: { label: { formatter: ({ value }: { value: unknown }) => `${String(value)} (${zone})` } } } : {}),
  };
}

/** The look of a bar whose bucket is still filling: lighter and hatched, so a part-day sum does not read as a drop. */
export const PARTIAL_BAR_STYLE = {
  opacity: 0.55,
  decal: {
    symbol: 'rect',
    symbolSize: 1,
    dashArrayX: [1, 0],
    dashArrayY: [2, 4],
    rotation: -Math.PI / 4,
    color: 'rgba(255,255,255,0.7)',
  },
};

/** Bar values, the partial bucket's drawn with PARTIAL_BAR_STYLE. */
export function partialBars(values: readonly number[], axis: PartialAxis): NonNullable<BarSeriesOption['data']> {
  const index = axis.partial?.index;
  return values.map((value, i) => (i === index ? { value, itemStyle: PARTIAL_BAR_STYLE } : value));
}

/**
 * One line of bucket values whose last bucket may still be filling, as the series that draw it: the complete
 * buckets solid; the segment into the partial bucket dotted, ending in a larger hollow point; and, when there is a
 * partial bucket, an invisible copy of every value that alone answers the tooltip (so each value is listed once).
 * All three share the name, so the legend shows and toggles them as one line.
 */
export function partialLine(base: LineSeriesOption, values: readonly (number | null)[], axis: PartialAxis): LineSeriesOption[] {
  const index = axis.partial?.index;
  if (index === undefined || values[index] === null || values[index] === undefined) return [{ ...base, data: [...values] }];
  const lineStyle = base.lineStyle ?? {};
  const quiet = { ...base.tooltip, show: false };
  return [
    { ...base, data: values.map((value, i) => (i === index ? null : value)), tooltip: quiet },
    {
      ...base,
      data: values.map((value, i) => {
        if (i === index) return { value, symbol: 'emptyCircle', symbolSize: 8 };
        return i === index - 1 ? { value, symbol: 'none' } : null;
      }),
      showSymbol: true,
      lineStyle: { ...lineStyle, type: 'dotted' },
      tooltip: quiet,
    },
    {
      ...base,
      data: [...values],
      symbol: 'none',
      lineStyle: { ...lineStyle, opacity: 0 },
      areaStyle: undefined,
      silent: true,
    },
  ];
}
