import type { TFunction } from 'i18next';
import type { CarChartDTO } from '../../../api/trend';
import { formatServerTime } from '../../../lib/playback';
import { axisLabel, mergeDetail, toPoints, type Loaded } from './model';

export type ValueKey = 'level' | 'volume' | 'v20' | 'temp';
export const VALUE_KEYS: readonly ValueKey[] = ['level', 'volume', 'v20', 'temp'];
const VALUE_INDEX: Record<ValueKey, number> = { level: 0, volume: 1, v20: 2, temp: 3 };

export const COLORS = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#be185d', '#4d7c0f'];

export interface CarOptionInput {
  overview: CarChartDTO;
  detail: CarChartDTO | null;
  value: ValueKey;
  /** Compartments shown (numbers). */
  shown: ReadonlySet<number>;
  /** The visible period (dataZoom), null = all. */
  view: { start: number; end: number } | null;
  /** A marked moment (a link's `at`, a clicked point). */
  mark: number | null;
  t: TFunction;
  large?: boolean;
}

const fmtTime = (ms: number) => formatServerTime(ms);
const round = (v: number) => Math.round(v * 10) / 10;

function loaded(c: CarChartDTO): Loaded {
  return { start: c.start, end: c.end, bucketMs: c.bucketMs };
}

/**
 * The hydtrend chart: three grids on one time axis — the compartments' series of the chosen value,
 * the speed, and a band of markers (valve/cover changes, fence entries and exits, tank events); inside
 * and slider zoom over all three.
 */
export function carOption({ overview, detail, value, shown, view, mark, t, large }: CarOptionInput) {
  const k = VALUE_INDEX[value];
  const span = (view ? view.end - view.start : overview.end - overview.start) || 1;
  const font = large ? 16 : 12;
  const win = detail ? loaded(detail) : null;
  const series: Record<string, unknown>[] = [];
  overview.compartments.forEach((c, i) => {
    if (!shown.has(c.no)) return;
    const d = detail?.compartments.find((x) => x.no === c.no);
    series.push({
      name: t('trend.comp', { n: c.no }),
      type: 'line',
      xAxisIndex: 0,
      yAxisIndex: 0,
      showSymbol: false,
      connectNulls: false,
      sampling: undefined,
      lineStyle: { width: 1.5 },
      color: COLORS[i % COLORS.length],
      data: mergeDetail(toPoints(c.series, k), d ? toPoints(d.series, k) : null, win),
      ...(series.length === 0 && mark !== null
        ? { markLine: { symbol: 'none', silent: true, label: { show: false }, lineStyle: { color: '#f59e0b', width: 2, type: 'solid' }, data: [{ xAxis: mark }] } }
        : {}),
    });
  });
  series.push({
    name: t('trend.speed'),
    type: 'line',
    xAxisIndex: 1,
    yAxisIndex: 1,
    showSymbol: false,
    connectNulls: false,
    color: '#64748b',
    areaStyle: { opacity: 0.15 },
    lineStyle: { width: 1 },
    data: mergeDetail(toPoints(overview.speed, 0), detail ? toPoints(detail.speed, 0) : null, win),
  });
  const marks = detail ?? overview;
  const valveData = marks.valves.map((v) => ({
    value: [v.t, 0],
    itemStyle: { color: v.state !== 0 ? '#dc2626' : '#16a34a' },
    tip: t('trend.valveTip', { time: fmtTime(v.t), n: v.compartment, kind: t(`trend.device.${v.kind}`), state: t(v.state !== 0 ? 'trend.opened' : 'trend.closed') }),
  }));
  const fenceData = marks.fences.map((f) => ({
    value: [f.t, 1],
    symbol: f.kind === 'fenceIn' ? 'triangle' : 'path://M0,0 L10,0 L5,10 Z',
    itemStyle: { color: f.kind === 'fenceIn' ? '#2563eb' : '#64748b' },
    tip: `${fmtTime(f.t)} ${t(`trend.${f.kind}`)} ${f.name}`,
  }));
  const eventData = marks.events.map((e) => ({
    value: [e.startAt, 2],
    itemStyle: { color: ['theft', 'dropMoving', 'dropOutside'].includes(e.kind) ? '#dc2626' : e.kind.startsWith('sensor') ? '#f59e0b' : '#9333ea' },
    tip: t('trend.eventTip', {
      time: fmtTime(e.startAt),
      kind: t(`trend.kind.${e.kind}`, { defaultValue: e.kind }),
      comp: e.compartment ? t('trend.comp', { n: e.compartment }) : '',
      before: round(e.beforeL),
      after: round(e.afterL),
    }),
  }));
  const scatter = (name: string, data: unknown[], symbol: string) => ({
    name, type: 'scatter', xAxisIndex: 2, yAxisIndex: 2, symbol, symbolSize: large ? 14 : 10, data,
    tooltip: { trigger: 'item', formatter: (p: { data: { tip: string } }) => p.data.tip },
  });
  series.push(scatter(t('trend.rowValve'), valveData, 'rect'), scatter(t('trend.rowFence'), fenceData, 'triangle'), scatter(t('trend.rowEvent'), eventData, 'diamond'));

  const xAxis = (gridIndex: number, labels: boolean) => ({
    type: 'time', gridIndex, min: overview.start, max: overview.end,
    axisLabel: { show: labels, fontSize: font, hideOverlap: true, formatter: (v: number) => axisLabel(v, span) },
    splitLine: { show: gridIndex === 0 }, axisPointer: { label: { formatter: (p: { value: number }) => fmtTime(p.value) } },
  });
  const dz = view ? { startValue: view.start, endValue: view.end } : { start: 0, end: 100 };
  return {
    animation: false,
    textStyle: { fontSize: font },
    legend: { top: 0, textStyle: { fontSize: font }, data: series.filter((s) => s.type === 'line').map((s) => s.name as string) },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'line' },
      valueFormatter: (v: unknown) => (typeof v === 'number' ? String(round(v)) : '—'),
    },
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    grid: [
      { left: 70, right: 40, top: 36, height: '48%' },
      { left: 70, right: 40, top: '62%', height: '13%' },
      { left: 70, right: 40, top: '79%', height: '9%' },
    ],
    xAxis: [xAxis(0, false), xAxis(1, false), xAxis(2, true)],
    yAxis: [
      { type: 'value', gridIndex: 0, name: t(`trend.${value}`), scale: value === 'temp', nameTextStyle: { fontSize: font, align: 'left' }, axisLabel: { fontSize: font } },
      { type: 'value', gridIndex: 1, name: t('trend.speed'), min: 0, nameTextStyle: { fontSize: font, align: 'left' }, axisLabel: { fontSize: font }, splitNumber: 2 },
      { type: 'category', gridIndex: 2, data: [t('trend.rowValve'), t('trend.rowFence'), t('trend.rowEvent')], axisLabel: { fontSize: font - 1 }, splitLine: { show: true } },
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: [0, 1, 2], filterMode: 'none', ...dz },
      { type: 'slider', xAxisIndex: [0, 1, 2], filterMode: 'none', bottom: 8, height: 22, labelFormatter: (v: number) => fmtTime(v), ...dz },
    ],
    series,
  };
}
