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
