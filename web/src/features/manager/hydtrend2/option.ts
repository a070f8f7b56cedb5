import type { TFunction } from 'i18next';
import type { TankChartDTO } from '../../../api/trend';
import { formatServerTime } from '../../../lib/playback';
import { axisLabel, mergeDetail, toPoints } from '../hydtrend/model';

export type TankValue = 'volume' | 'v20' | 'height' | 'water' | 'temp';
export const TANK_VALUES: readonly TankValue[] = ['volume', 'v20', 'height', 'water', 'temp'];
const INDEX: Record<TankValue, number> = { volume: 0, v20: 1, height: 2, water: 3, temp: 4 };
const COLORS: Record<TankValue, string> = { volume: '#2563eb', v20: '#16a34a', height: '#9333ea', water: '#0891b2', temp: '#ea580c' };
const round = (v: number) => Math.round(v * 10) / 10;

export interface TankOptionInput {
  overview: TankChartDTO;
  detail: TankChartDTO | null;
  shown: ReadonlySet<TankValue>;
  view: { start: number; end: number } | null;
  mark: number | null;
  t: TFunction;
  large?: boolean;
}

/** The deliveries as shaded spans [start, end] with their tooltip text. */
export function deliverySpans(c: TankChartDTO, t: TFunction) {
  return c.deliveries.map((d) => [
    {
      xAxis: d.startAt,
      name: t('trend.deliveryTip', { start: formatServerTime(d.startAt), end: formatServerTime(d.endAt), from: round(d.startL), to: round(d.endL) }),
    },
    { xAxis: Math.max(d.endAt, d.startAt + 1) },
  ]);
}

/**
 * The hydtrend2 chart: the tank's values (each on its own axis family: litres left, millimetres and
 * °C on the right), deliveries as shaded spans, and the sales rate (L/h) in a second grid.
 */
export function tankOption({ overview, detail, shown, view, mark, t, large }: TankOptionInput) {
  const span = (view ? view.end - view.start : overview.end - overview.start) || 1;
  const font = large ? 16 : 12;
  const win = detail ? { start: detail.start, end: detail.end, bucketMs: detail.bucketMs } : null;
  const axisOf: Record<TankValue, number> = { volume: 0, v20: 0, height: 1, water: 1, temp: 2 };
  const series: Record<string, unknown>[] = [];
  for (const v of TANK_VALUES) {
    if (!shown.has(v)) continue;
    series.push({
      name: t(`trend.${v}`), type: 'line', xAxisIndex: 0, yAxisIndex: axisOf[v], showSymbol: false, connectNulls: false,
      color: COLORS[v], lineStyle: { width: 1.5 },
      data: mergeDetail(toPoints(overview.series, INDEX[v]), detail ? toPoints(detail.series, INDEX[v]) : null, win),
    });
  }
  // the spans (and a marked moment) ride on a carrier series so they show whatever values are chosen
  series.push({
    name: t('trend.delivery'), type: 'line', xAxisIndex: 0, yAxisIndex: 0, data: [], color: 'rgba(245, 158, 11, 0.6)',
    markArea: { silent: false, itemStyle: { color: 'rgba(245, 158, 11, 0.18)' }, label: { show: false }, data: deliverySpans(overview, t) },
    ...(mark !== null ? { markLine: { symbol: 'none', silent: true, label: { show: false }, lineStyle: { color: '#dc2626', width: 2 }, data: [{ xAxis: mark }] } } : {}),
  });
  series.push({
    name: t('trend.sales'), type: 'line', step: 'middle', xAxisIndex: 1, yAxisIndex: 3, showSymbol: false, connectNulls: false,
    color: '#be185d', areaStyle: { opacity: 0.15 }, data: toPoints(overview.sales, 0),
  });
  const xAxis = (gridIndex: number, labels: boolean) => ({
    type: 'time', gridIndex, min: overview.start, max: overview.end,
    axisLabel: { show: labels, fontSize: font, hideOverlap: true, formatter: (v: number) => axisLabel(v, span) },
    axisPointer: { label: { formatter: (p: { value: number }) => formatServerTime(p.value) } },
  });
  const dz = view ? { startValue: view.start, endValue: view.end } : { start: 0, end: 100 };
  const y = (gridIndex: number, name: string, position: 'left' | 'right', offset = 0, show = true) => ({
    type: 'value', gridIndex, name, position, offset, show, scale: true,
    nameTextStyle: { fontSize: font }, axisLabel: { fontSize: font }, splitLine: { show: position === 'left' },
  });
  const any = (vs: TankValue[]) => vs.some((v) => shown.has(v));
  return {
    animation: false,
    textStyle: { fontSize: font },
    legend: { top: 0, textStyle: { fontSize: font } },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? String(round(v)) : '—') },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    grid: [
      { left: 80, right: 130, top: 40, height: '58%' },
      { left: 80, right: 130, top: '74%', height: '14%' },
    ],
    xAxis: [xAxis(0, false), xAxis(1, true)],
    yAxis: [
      y(0, 'L', 'left', 0, true),
      y(0, 'mm', 'right', 0, any(['height', 'water'])),
      y(0, '°C', 'right', 60, any(['temp'])),
      { ...y(1, t('trend.sales'), 'left'), min: 0, scale: false, splitNumber: 2 },
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: [0, 1], filterMode: 'none', ...dz },
      { type: 'slider', xAxisIndex: [0, 1], filterMode: 'none', bottom: 8, height: 22, labelFormatter: (v: number) => formatServerTime(v), ...dz },
    ],
    series,
  };
}
