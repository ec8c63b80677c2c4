// The only module that loads chart code; <EChart> imports it lazily, so no page pays for charts before it draws one.
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register, type ECharts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// Named so the hooks lint does not take it for React's use().
register([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

export { init };
export type { ECharts };

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a drawn chart put its legends and its plots (grids, pies), in px from its top left corner. */
export interface ChartLayout {
  width: number;
  height: number;
  legends: Rect[];
  plots: Rect[];
}

// ECharts keeps the drawn boxes on its component views, which its typings mark private: the little used here.
interface Box {
  getBoundingRect(): { clone(): Box & Rect };
  applyTransform(m: unknown): void;
}
interface View {
  group: { getBoundingRect(): { clone(): Box & Rect }; updateTransform(): void; transform: unknown };
}
interface Model {
  coordinateSystem?: { getRect(): Rect };
  subType?: string;
  getData?(): { count(): number; getItemLayout(i: number): { cx: number; cy: number; r: number } | undefined };
}
interface Internals {
  getModel(): {
    findComponents(query: { mainType: string }): Model[];
    getSeries(): Model[];
  };
  getViewOfComponentModel(model: Model): View | undefined;
}

/** The chart's legends, grids and pies as drawn (after setOption or resize). */
export function chartLayout(chart: ECharts): ChartLayout {
  const internals = chart as unknown as Internals;
  const model = internals.getModel();
  const legends = model.findComponents({ mainType: 'legend' }).flatMap((legend) => {
    const group = internals.getViewOfComponentModel(legend)?.group;
    if (!group) return [];
    const rect = group.getBoundingRect().clone();
    group.updateTransform();
    if (group.transform) rect.applyTransform(group.transform);
    return rect.width > 0 ? [{ x: rect.x, y: rect.y, width: rect.width, height: rect.height }] : [];
  });
  const grids = model
    .findComponents({ mainType: 'grid' })
    .flatMap((grid) => (grid.coordinateSystem ? [grid.coordinateSystem.getRect()] : []));
  const pies = model.getSeries().flatMap((series) => {
    if (series.subType !== 'pie' || !series.getData) return [];
    const data = series.getData();
    const layout = data.count() > 0 ? data.getItemLayout(0) : undefined;
    return layout ? [{ x: layout.cx - layout.r, y: layout.cy - layout.r, width: 2 * layout.r, height: 2 * layout.r }] : [];
  });
  const plots = [...grids, ...pies].map(({ x, y, width, height }) => ({ x, y, width, height }));
  return { width: chart.getWidth(), height: chart.getHeight(), legends, plots };
}
