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
 * (issue 20). Plain, not paged: a legend wider than the chart wraps, and <EChart> makes room for its rows (legendFit).
 */
export const LEGEND_TOP = { type: 'plain', top: 0, left: 'center' } as const;
// The bottom leaves the x axis's labels their line: at 8 px "Oct 30" and "07:00" were cut at the foot (issue 37).
export const GRID_UNDER_LEGEND = { top: 64, left: 8, right: 16, bottom: 20 } as const;

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
export function partialLine(
  base: LineSeriesOption,
  values: readonly (number | null)[],
  axis: PartialAxis,
  /** The axis top (partialCap): a partial value above it is drawn there, as an upward triangle. */
  cap?: number,
): LineSeriesOption[] {
  const index = axis.partial?.index;
  if (index === undefined || values[index] === null || values[index] === undefined) return [{ ...base, data: [...values] }];
  const lineStyle = base.lineStyle ?? {};
  const quiet = { ...base.tooltip, show: false };
  return [
    { ...base, data: values.map((value, i) => (i === index ? null : value)), tooltip: quiet },
    {
      ...base,
      data: values.map((value, i) => {
        if (i === index)
          return cap !== undefined && value !== null && value > cap
            ? { value: cap, symbol: 'triangle', symbolSize: 9 }
            : { value, symbol: 'emptyCircle', symbolSize: 8 };
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

/** What chartLayout (lib/echarts.ts) reports of a drawn chart; structural, so this module stays types-only. */
interface DrawnLayout {
  legends: readonly { y: number; height: number }[];
  plots: readonly { y: number }[];
}

/** Room between a top legend and a grid: the axis names ("ROIs", "°C") sit in it. */
export const LEGEND_GRID_GAP = 40;
/** Room between a top legend and a pie. */
export const LEGEND_PIE_GAP = 12;

/**
 * Legends are plain, never paged or cut (issue 37: "Da", "002Diato" beside paging arrows): a long one wraps onto
 * more rows. When the rows reach into the plot, the plots move down by `extra` px and the chart grows as much, so
 * the plot keeps its size. `drawn` is the chart as drawn with `extraNow` already added; the answer is the extra the
 * legend needs and the whole option to draw (null: the option as given fits).
 */
export function legendFit(
  option: ChartOption,
  drawn: DrawnLayout,
  extraNow: number,
): { extra: number; fitted: ChartOption | null } {
  if (drawn.legends.length === 0 || drawn.plots.length === 0) return { extra: 0, fitted: null };
  const legendBottom = Math.max(...drawn.legends.map((legend) => legend.y + legend.height));
  const plotTop = Math.min(...drawn.plots.map((plot) => plot.y)) - extraNow;
  const grids = option.grid === undefined ? [] : Array.isArray(option.grid) ? option.grid : [option.grid];
  const series = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  const gap = grids.length > 0 ? LEGEND_GRID_GAP : LEGEND_PIE_GAP;
  const extra = Math.max(0, Math.ceil(legendBottom + gap - plotTop));
  if (extra === 0) return { extra: 0, fitted: null };
  const moved = (top: unknown) => (typeof top === 'number' ? top : 0) + extra;
  return {
    extra,
    fitted: {
      ...option,
      ...(grids.length > 0 ? { grid: grids.map((grid) => ({ ...grid, top: moved(grid.top) })) } : {}),
      series: series.map((item) => (item.type === 'pie' ? { ...item, top: moved((item as { top?: unknown }).top) } : item)),
    } as ChartOption,
  };
}

/** The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above `value` (> 0): an axis top that ticks divide evenly. */
export function niceCeil(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((each) => each * power >= value * (1 - 1e-9)) ?? 10;
  return Number((step * power).toPrecision(3));
}

/**
 * The top of a value axis whose last bucket may still be filling: a few minutes of an hour hold a handful of images
 * in a litre or two, so their ratio swings far above the whole hours (issue 37: one hour drew 1.03 ind/L over
 * 0.2–0.4 and set the scale). When the partial value exceeds every complete one, the axis ends at the complete
 * values' nice top and partialLine draws the partial point there, marked; its tooltip still gives the value.
 * Undefined: the axis scales itself.
 */
export function partialCap(values: readonly (number | null)[], axis: PartialAxis): number | undefined {
  const index = axis.partial?.index;
  const partial = index === undefined ? null : values[index];
  if (index === undefined || partial === null || partial === undefined) return undefined;
  const complete = values.filter((value, i): value is number => i !== index && value !== null);
  const most = complete.length > 0 ? Math.max(...complete) : 0;
  return most > 0 && partial > most ? niceCeil(most) : undefined;
}

/**
 * One notation for every tick of a linear value axis (issue 37: "1.00e-3" beside "0.01"): plain decimals to three
 * significant figures, trailing zeros dropped (0.001, 0.0025, 0.01, 1200).
 */
export function linearTick(value: number): string {
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(3));
  const decimals = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(rounded))));
  const text = rounded.toFixed(Math.min(decimals, 20));
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

const SUPERSCRIPT = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
} as const;

/** One notation for every tick of a log axis: powers of ten as 10ⁿ (10⁻³, 10⁰, 10²); others to three figures, ×10ⁿ. */
export function logTick(value: number): string {
  if (value <= 0) return String(value);
  const exponent = Math.floor(Math.log10(value) + 1e-9);
  const mantissa = Number((value / 10 ** exponent).toPrecision(3));
  const power = `10${[...String(exponent)].map((c) => SUPERSCRIPT[c as keyof typeof SUPERSCRIPT]).join('')}`;
  return mantissa === 1 ? power : `${mantissa}×${power}`;
}
