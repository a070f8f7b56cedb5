import * as echarts from 'echarts/core';
import { useEffect, useRef } from 'react';
import { themedOption, useChartTheme } from '../app/prefs';

/**
 * An ECharts instance on a box that follows the box's size and shows option (replaced, not merged,
 * whenever it changes). The caller registers the charts and components it uses with echarts.use, so
 * each page's chunk carries only those.
 */
export function useEChart(option: echarts.EChartsCoreOption) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  // the dark preference (D77): a theme is fixed at init, so a change makes the chart again (the
  // option effect below runs after this one and fills it)
  const theme = useChartTheme();
  useEffect(() => {
    const el = box.current!;
    const c = echarts.init(el, theme);
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [theme]);
  useEffect(() => {
    chart.current?.setOption(themedOption(option, theme), true);
  }, [option, theme]);
  return box;
}
