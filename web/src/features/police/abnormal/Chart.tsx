import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEChart } from '../../../components/useEChart';

// only the three charts and the components they need (keeps the page's chunk small)
echarts.use([PieChart, BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/** An ECharts canvas that follows its option and its box's size. */
export function Chart({ option, height = 320, testId }: { option: ChartOption; height?: number; testId?: string }) {
  const box = useEChart(option);
  return <div ref={box} style={{ height, width: '100%' }} data-testid={testId} />;
}
