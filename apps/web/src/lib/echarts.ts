// The only module that loads chart code; <EChart> imports it lazily, so no page pays for charts before it draws one.
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// Named so the hooks lint does not take it for React's use().
register([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

export { init };
export type { ECharts } from 'echarts/core';
