import * as echarts from 'echarts/core';
import { useEffect, useRef } from 'react';

/**
 * An ECharts instance on a box that follows the box's size and shows option (replaced, not merged,
 * whenever it changes). The caller registers the charts and components it uses with echarts.use, so
 * each page's chunk carries only those.
 */
export function useEChart(option: echarts.EChartsCoreOption) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    const el = box.current!;
    const c = echarts.init(el);
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  return box;
}
