import type { EcologyBucket, NbssSeries } from '@ipp/contracts';
import {
  bucketXAxis,
  CHART_COLORS,
  GRID_UNDER_LEGEND,
  LEGEND_TOP,
  linearTick,
  logTick,
  partialCap,
  partialLine,
  type ChartOption,
} from '@/lib/chart-option';
import type { BucketAxis } from '@/lib/chart-time';

/**
 * A value that may span many decades (ind/L, mm³/L, NBSS): three significant digits between 0.01 and 100,000,
 * scientific notation beyond.
 */
export function formatScientific(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  return abs >= 0.01 && abs < 1e5 ? String(Number(value.toPrecision(3))) : value.toExponential(2);
}

export interface SeriesNames {
  concentration: string;
  biovolume: string;
  perLitre: string;
  mm3PerLitre: string;
}

/**
 * Concentration (ind/L, left axis) and, with a pixel size, biovolume concentration (mm³/L, right axis) per
 * interval; intervals without sampled water are gaps. The current interval (so far) is drawn partial.
 */
export function ecologySeriesOption(
  axis: BucketAxis,
  buckets: readonly EcologyBucket[],
  names: SeriesNames,
  withBiovolume: boolean,
): ChartOption {
  const valueFormatter = (value: unknown) => (typeof value === 'number' ? formatScientific(value) : '—');
  const concentration = buckets.map((b) => b.concentration_per_l);
  const biovolume = buckets.map((b) => b.biovolume_mm3_per_l);
  // The hour so far sets neither axis (partialCap): its few images in a litre or two are no peak.
  const concentrationCap = partialCap(concentration, axis);
  const biovolumeCap = withBiovolume ? partialCap(biovolume, axis) : undefined;
  return {
    color: [CHART_COLORS[4], CHART_COLORS[1]],
    legend: { ...LEGEND_TOP },
    tooltip: { trigger: 'axis', valueFormatter },
    grid: GRID_UNDER_LEGEND,
    xAxis: bucketXAxis(axis, false),
    yAxis: [
      { type: 'value', name: names.perLitre, max: concentrationCap, axisLabel: { formatter: linearTick } },
      ...(withBiovolume
        ? [
            {
              type: 'value' as const,
              name: names.mm3PerLitre,
              max: biovolumeCap,
              splitLine: { show: false },
              axisLabel: { formatter: linearTick },
            },
          ]
        : []),
    ],
    series: [
      ...partialLine(
        { type: 'line', name: names.concentration, connectNulls: false, symbolSize: 4, yAxisIndex: 0 },
        concentration,
        axis,
        concentrationCap,
      ),
      ...(withBiovolume
        ? partialLine(
            {
              type: 'line',
              name: names.biovolume,
              connectNulls: false,
              symbolSize: 4,
              yAxisIndex: 1,
              lineStyle: { type: 'dashed' },
            },
            biovolume,
            axis,
            biovolumeCap,
          )
        : []),
    ],
  };
}

export interface NbssNames {
  /** The series' legend name (the class, or the whole selection), with its slope. */
  seriesName: (series: NbssSeries) => string;
  xAxis: string;
  yAxis: string;
  /** Tooltip line for a point. */
  point: (p: { esd: string; count: number; nbss: string; min: string; max: string }) => string;
}

/**
 * The NBSS on log-log axes: one line per series, a point per size class at its middle biovolume (mm³); the total of
 * the selection thicker. An empty size class between two others is a gap (log axes cannot draw zero).
 */
export function nbssOption(series: readonly NbssSeries[], names: NbssNames): ChartOption {
  return {
    color: ['#333333', ...CHART_COLORS],
    legend: { ...LEGEND_TOP },
    tooltip: {
      trigger: 'item',
      formatter: (params: unknown) => {
        const p = params as { seriesName: string; data: { point: NbssSeries['points'][number] } };
        const point = p.data.point;
        return `${p.seriesName}<br/>${names.point({
          esd: formatScientific(point.esd_um),
          count: point.count,
          nbss: formatScientific(point.nbss_per_l),
          min: formatScientific(point.min_mm3),
          max: formatScientific(point.max_mm3),
        })}`;
      },
    },
    grid: { ...GRID_UNDER_LEGEND, left: 44, right: 24, bottom: 32, containLabel: true },
    xAxis: {
      type: 'log',
      name: names.xAxis,
      nameLocation: 'middle',
      nameGap: 28,
      axisLabel: { formatter: logTick },
    },
    // The long name is centred on the axis: the grid leaves it room on the left ("NBSS (mm³ L⁻¹ mm⁻³)" lost its "N").
    yAxis: { type: 'log', name: names.yAxis, axisLabel: { formatter: logTick } },
    series: series.map((s) => ({
      type: 'line' as const,
      name: names.seriesName(s),
      symbolSize: s.total ? 7 : 5,
      lineStyle: { width: s.total ? 3 : 1.5 },
      data: withGaps(s.points).map((point) =>
        point === null ? null : { value: [Math.sqrt(point.min_mm3 * point.max_mm3), point.nbss_per_l], point },
      ),
    })),
  };
}

/** The points in size order, with null where a size class between two non-empty ones has no objects. */
function withGaps(points: NbssSeries['points']): (NbssSeries['points'][number] | null)[] {
  const out: (NbssSeries['points'][number] | null)[] = [];
  points.forEach((point, index) => {
    const previous = points[index - 1];
    if (previous && point.size_class > previous.size_class + 1) out.push(null);
    out.push(point);
  });
  return out;
}
