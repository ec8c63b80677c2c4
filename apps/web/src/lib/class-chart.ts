import { PIE_TOP_CLASSES, type ClassCount } from '@ipp/contracts';
import { CHART_COLORS, LEGEND_TOP, OTHERS_COLOR, type ChartOption } from './chart-option';

export interface ClassSlice {
  name: string;
  count: number;
  /** The sum of every class outside the top ones. */
  others: boolean;
}

export interface ClassNames {
  /** Name of the ROIs without a class (class_id null). */
  unclassified: string;
  others: string;
}

/**
 * The largest classes and one "Others" slice for the rest (spec §9: the pie shows the top 6). `othersCount` is
 * what the server already summed outside the classes it listed.
 */
export function classSlices(
  classes: readonly ClassCount[],
  names: ClassNames,
  othersCount = 0,
  top: number = PIE_TOP_CLASSES,
): ClassSlice[] {
  const sorted = classes.filter((entry) => entry.count > 0).toSorted((a, b) => b.count - a.count);
  const slices = sorted.slice(0, top).map((entry) => ({
    name: entry.class_id === null ? names.unclassified : (entry.name ?? names.unclassified),
    count: entry.count,
    others: false,
  }));
  const rest = othersCount + sorted.slice(top).reduce((sum, entry) => sum + entry.count, 0);
  if (rest > 0) slices.push({ name: names.others, count: rest, others: true });
  return slices;
}

/** "004Appendicularian" → "004 Appendicularian": the break after the code is where a label may wrap. */
export const pieLabelName = (name: string) => name.replace(/^(\d{3})(?=[^\s\d])/, '$1 ');

/** A pie of the slices, "Others" in grey, each slice labelled with its share. */
export function classPieOption(slices: readonly ClassSlice[], seriesName: string): ChartOption {
  let color = 0;
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    // On top and plain like every legend: wrapped onto rows, never paged (<EChart> moves the pie under them).
    legend: { ...LEGEND_TOP },
    series: [
      {
        type: 'pie',
        name: seriesName,
        // A smaller ring leaves the labels room for a whole word ("Appendicularian") at the card's width at 1440 px.
        radius: ['26%', '47%'],
        // The pie's box starts under a one-row legend; center and radius are of that box.
        top: 28,
        center: ['50%', '50%'],
        // Labels at the card's edges, each on its own lines, wrapping rather than cutting to "00…" (issue 20);
        // overlapping ones are hidden (the legend and tooltip still name every slice).
        // A class name's three-digit code is its own word, so a long name wraps after it, not inside a word
        // ("004Appendiculari / an").
        label: {
          formatter: (params: { name: string; percent?: number }) => `${pieLabelName(params.name)}\n${params.percent ?? 0}%`,
          alignTo: 'edge',
          edgeDistance: 8,
          minMargin: 4,
          fontSize: 11,
          lineHeight: 13,
          overflow: 'break',
        },
        labelLine: { length: 8, length2: 0, maxSurfaceAngle: 80 },
        labelLayout: { hideOverlap: true },
        data: slices.map((slice) => ({
          name: slice.name,
          value: slice.count,
          itemStyle: { color: slice.others ? OTHERS_COLOR : CHART_COLORS[color++ % CHART_COLORS.length] },
        })),
      },
    ],
  };
}
