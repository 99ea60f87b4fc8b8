/**
 * ECharts through `echarts/core` with only what the portal draws registered, so the chunk holds
 * three chart types and a canvas renderer rather than the whole library. Imported only by lazy
 * chunks (the dashboard, the work screen, a drag page's chart widget): never by the login page or
 * the signed-in first screen.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register, type EChartsCoreOption, type EChartsType } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// ECharts' own `use` (not React's): named apart so the hooks rule does not read it as one.
register([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { init, type EChartsCoreOption, type EChartsType };
