import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Named, Point } from '../../../api/overview';
import { useEChart } from '../../../components/useEChart';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** Calls onClick with the index of the bar clicked (the chart instance is the box's). */
function useBarClick(box: React.RefObject<HTMLDivElement | null>, onClick?: (index: number) => void) {
  const handler = useRef(onClick);
  handler.current = onClick;
  useEffect(() => {
    const el = box.current;
    const c = el ? echarts.getInstanceByDom(el) : undefined;
    if (!c) return;
    const fn = (p: { dataIndex?: number; componentType?: string }) => {
      if (p.componentType === 'series' && p.dataIndex !== undefined) handler.current?.(p.dataIndex);
    };
    c.on('click', fn);
    return () => {
      c.off('click', fn);
    };
  }, [box]);
}

/** Per day: shipped V20 (bars, left axis) and the loss rate (line, right axis); a click on a day drills down. */
export function DayChart({ days, onDay }: { days: Point[]; onDay: (day: string) => void }) {
  const { t } = useTranslation();
  const option = useMemo(
    () => ({
      animationDuration: 300,
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 8, right: 8, top: 36, bottom: 4, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: [
        { type: 'value', name: t('overview.chart.v20L'), axisLabel: { formatter: (v: number) => `${v / 1000}k` } },
        { type: 'value', name: t('overview.chart.lossRate'), axisLabel: { formatter: '{value} %' }, splitLine: { show: false } },
      ],
      series: [
        { name: t('overview.tile.shippedV20'), type: 'bar', data: days.map((d) => Math.round(d.shippedV20)), itemStyle: { color: '#3b82f6' }, cursor: 'pointer' },
        { name: t('overview.tile.lossRate'), type: 'line', yAxisIndex: 1, smooth: true, data: days.map((d) => (d.trips ? d.lossRatePct : null)), itemStyle: { color: '#ef4444' } },
      ],
    }),
    [days, t],
  );
  const box = useEChart(option);
  useBarClick(box, (i) => onDay(days[i].day));
  return <div ref={box} style={{ height: 300 }} data-testid="chart-day" />;
}

/** Horizontal bars of one figure per company or product; a click on a bar calls onBar. */
export function NamedBars({ rows, value, label, color, onBar, testId }: {
  rows: Named[];
  value: (r: Named) => number;
  label: string;
  color: string;
  onBar?: (r: Named) => void;
  testId: string;
}) {
  const option = useMemo(
    () => ({
      animationDuration: 300,
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      grid: { left: 8, right: 48, top: 8, bottom: 4, containLabel: true },
      xAxis: { type: 'value', name: label, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'category', inverse: true, data: rows.map((r) => r.name || '—') },
      series: [
        {
          name: label,
          type: 'bar',
          barMaxWidth: 26,
          data: rows.map((r) => Math.round(value(r))),
          itemStyle: { color, borderRadius: [0, 4, 4, 0] },
          label: { show: true, position: 'right', formatter: (p: { value: number }) => Number(p.value).toLocaleString() },
          cursor: onBar ? 'pointer' : 'default',
        },
      ],
    }),
    [rows, value, label, color, onBar],
  );
  const box = useEChart(option);
  useBarClick(box, (i) => onBar?.(rows[i]));
  return <div ref={box} style={{ height: Math.max(160, rows.length * 44 + 40) }} data-testid={testId} />;
}
