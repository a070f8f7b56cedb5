import { BarChart } from 'echarts/charts';
import { GridComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { useEChart } from '../../../components/useEChart';

// only the bar chart and its grid (keeps the page's chunk small)
echarts.use([BarChart, GridComponent, CanvasRenderer]);

export interface BandBar {
  label: string;
  count: number;
  color: string;
}

/** Horizontal bars of compartments per fill band, with the count written at the end of each bar. */
export function BandChart({ bars, fontSize, testId }: { bars: BandBar[]; fontSize: number; testId?: string }) {
  const option = useMemo(() => {
    const max = Math.max(1, ...bars.map((b) => b.count));
    return {
      animationDuration: 400,
      grid: { left: 8, right: fontSize * 4, top: 4, bottom: 4, containLabel: true },
      xAxis: { type: 'value', show: false, max: max * 1.02 },
      yAxis: {
        type: 'category',
        inverse: true,
        data: bars.map((b) => b.label),
        axisLine: { show: false },
        axisTick: { show: false },
        axisLabel: { color: '#e2e8f0', fontSize, margin: fontSize * 0.6 },
      },
      series: [
        {
          type: 'bar',
          barWidth: '62%',
          data: bars.map((b) => ({ value: b.count, itemStyle: { color: b.color, borderRadius: [0, 4, 4, 0] } })),
          label: { show: true, position: 'right', color: '#f8fafc', fontSize: fontSize * 1.1, fontWeight: 'bold' },
          showBackground: true,
          backgroundStyle: { color: 'rgba(148,163,184,0.08)', borderRadius: [0, 4, 4, 0] },
        },
      ],
    };
  }, [bars, fontSize]);
  const box = useEChart(option);
  return <div ref={box} className="lc-chart" data-testid={testId} />;
}
