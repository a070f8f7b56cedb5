import { LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomInsideComponent, DataZoomSliderComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { themedOption, useChartTheme } from '../../../app/prefs';

// only the parts the trend charts draw (keeps the pages' chunk small)
echarts.use([LineChart, ScatterChart, GridComponent, LegendComponent, TooltipComponent, DataZoomInsideComponent, DataZoomSliderComponent,
  MarkAreaComponent, MarkLineComponent, CanvasRenderer]);

export type TrendOption = echarts.EChartsCoreOption;

export interface TrendChartProps {
  option: TrendOption;
  height: number | string;
  /** The visible period after a zoom or pan (Unix ms). */
  onZoom?: (start: number, end: number) => void;
  /** A click on the chart at a moment (Unix ms). */
  onPick?: (t: number) => void;
  testId?: string;
}

/**
 * An ECharts canvas for the trend pages: follows its option (replacing it, the zoom kept by the
 * option's dataZoom values) and its box's size; reports zoom/pan (debounced) and clicks as times.
 */
export function TrendChart({ option, height, onZoom, onPick, testId }: TrendChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const handlers = useRef({ onZoom, onPick });
  handlers.current = { onZoom, onPick };
  // the dark preference (D77): a theme is fixed at init, so a change makes the chart again
  const theme = useChartTheme();
  useEffect(() => {
    const el = box.current!;
    const c = echarts.init(el, theme);
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el);
    let timer = 0;
    c.on('datazoom', () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        const dz = (c.getOption() as { dataZoom?: { startValue?: number; endValue?: number }[] }).dataZoom?.[0];
        if (dz && typeof dz.startValue === 'number' && typeof dz.endValue === 'number') handlers.current.onZoom?.(dz.startValue, dz.endValue);
      }, 350);
    });
    // a click (press and release within a few pixels; a drag pans) at a moment of any grid
    let down: { x: number; y: number } | null = null;
    let pointed: number | null = null;
    c.on('updateAxisPointer', (ev: unknown) => {
      const info = (ev as { axesInfo?: { axisDim?: string; value?: number }[] }).axesInfo ?? [];
      const x = info.find((a) => a.axisDim === 'x');
      pointed = x && typeof x.value === 'number' ? x.value : null;
    });
    c.getZr().on('globalout', () => {
      pointed = null;
    });
    const onDown = (e: PointerEvent) => {
      down = { x: e.clientX, y: e.clientY };
    };
    const onUp = (e: PointerEvent) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
      down = null;
      // the moment under the pointer is the axis pointer's (the tooltip's) value
      if (pointed !== null) handlers.current.onPick?.(Math.round(pointed));
    };
    el.addEventListener('pointerdown', onDown, true);
    el.addEventListener('pointerup', onUp, true);
    return () => {
      el.removeEventListener('pointerdown', onDown, true);
      el.removeEventListener('pointerup', onUp, true);
      window.clearTimeout(timer);
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [theme]);
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const t0 = performance.now();
    c.setOption(themedOption(option, theme), true);
    // the draw time of the last option, read by the e2e timing (docs/PERFORMANCE.md)
    c.on('finished', function once() {
      c.off('finished', once);
      box.current?.setAttribute('data-draw-ms', String(Math.round(performance.now() - t0)));
    });
  }, [option, theme]);
  return <div ref={box} style={{ height, width: '100%' }} data-testid={testId} />;
}
