import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useEChart } from '../../../components/useEChart';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/**
 * A chart of the analysis pages; onPick gets the index of the category clicked (a bar, a point, or
 * the empty space above a category), so that every number on it drills down to its trips.
 */
export function Chart({ option, height, onPick, testId }: { option: echarts.EChartsCoreOption; height: number; onPick?: (i: number) => void; testId?: string }) {
  const box = useEChart(option);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const c = box.current && echarts.getInstanceByDom(box.current);
    if (!c) return;
    const onClick = (p: { dataIndex?: number }) => {
      if (typeof p.dataIndex === 'number') pick.current?.(p.dataIndex);
    };
    c.on('click', onClick);
    return () => {
      c.off('click', onClick);
    };
  }, [box]);
  return <div ref={box} style={{ height, width: '100%', cursor: onPick ? 'pointer' : undefined }} data-testid={testId} />;
}
