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
