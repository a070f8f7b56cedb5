import type { Comparison, Figures, Grain, Only, Period, Row } from './api';

/** One figure the pages show: how to read it from a set, how to print it, and which trips are behind it. */
export interface Figure {
  key: string;
  /** null: the figure is not known for the set (shown as —). */
  value: (f: Figures) => number | null;
  digits: number;
  unit?: string;
  /** The drill-down behind the number; undefined: counted from lock or seal events, not trips. */
  only?: Only;
}

export const FIGURES: Figure[] = [
  { key: 'trips', value: (f) => f.trips, digits: 0, only: '' },
  { key: 'shippedV20', value: (f) => f.shippedV20, digits: 1, unit: 'L', only: '' },
  { key: 'shippedT', value: (f) => f.shippedT, digits: 3, unit: 't', only: '' },
  { key: 'lossL', value: (f) => f.lossL, digits: 1, unit: 'L', only: '' },
  { key: 'lossRatePct', value: (f) => f.lossRatePct, digits: 4, unit: '%', only: '' },
  { key: 'tonKm', value: (f) => f.tonKm, digits: 1, only: '' },
  { key: 'km', value: (f) => f.km, digits: 1, unit: 'km', only: '' },
  { key: 'avgOutToArrivalMin', value: (f) => (f.avgOutToArrivalMin < 0 ? null : f.avgOutToArrivalMin), digits: 1, unit: 'min', only: 'timed' },
  { key: 'abnormalOpenings', value: (f) => f.abnormalOpenings, digits: 0, only: 'openings' },
  { key: 'overAllowance', value: (f) => f.overAllowance, digits: 0, only: 'over' },
  { key: 'tampering', value: (f) => f.tampering, digits: 0 },
  { key: 'sealIncidents', value: (f) => f.sealIncidents, digits: 0 },
];

export const figure = (key: string) => FIGURES.find((f) => f.key === key)!;

/** A figure for a cell: grouped thousands, fixed decimals, — when unknown. */
export function fmt(v: number | null | undefined, digits: number): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A change in %: signed, one decimal; — when there is nothing to compare with (never ∞). */
export function fmtChange(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return `${v > 0 ? '+' : ''}${v.toFixed(1)} %`;
}

/** YYYYMMDD → 'YYYY-MM-DD'. */
export function dayStr(d: number): string {
  const s = String(d);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

/** A step's label on a chart's axis: the day, the week's first day, or the month. */
export function stepLabel(p: Period, grain: Grain): string {
  if (grain === 'month') return dayStr(p.from).slice(0, 7);
  if (grain === 'week') return `${dayStr(p.from).slice(5)}~${dayStr(p.to).slice(5)}`;
  return dayStr(p.from).slice(5);
}

/** The request range of a step or a period: from its first second to its last. */
export function rangeOf(p: Period): { start: string; end: string } {
  return { start: `${dayStr(p.from)} 00:00:00`, end: `${dayStr(p.to)} 23:59:59` };
}

/** The filters that pick a breakdown row's trips. */
export function rowFilter(dim: string, r: Row): { companyId?: number; productId?: number; depotId?: number; stationId?: number } {
  if (dim === 'product') return { productId: r.key };
  if (dim === 'route') return { depotId: r.depotId, stationId: r.stationId ?? 0 };
  return { companyId: r.key };
}

/** The value of a figure for a trip in the drill-down (the rows the drawer adds up). */
export function tripSum(key: string, rows: { shippedV20: number; lossL: number; openings: number }[]): number {
  if (key === 'abnormalOpenings') return rows.reduce((s, r) => s + r.openings, 0);
  if (key === 'lossL') return rows.reduce((s, r) => s + r.lossL, 0);
  return rows.reduce((s, r) => s + r.shippedV20, 0);
}

type T = (k: string, o?: Record<string, unknown>) => string;

/** A category's label on the axis: a route (depot → station) by its station. */
export function axisName(name: string): string {
  const i = name.indexOf(' → ');
  return i < 0 ? name : name.slice(i + 3);
}

/** The breakdown chart: V20 shipped per row (bars) and the loss rate (line, right axis). */
export function breakdownOption(rows: Row[], t: T) {
  const names = rows.map((r) => r.name || '—');
  return {
    animation: false,
    grid: { left: 72, right: 64, top: 40, bottom: 72 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    // a route's label is its station (the depots repeat); the tooltip names the whole route
    xAxis: { type: 'category', data: names, axisLabel: { interval: 0, rotate: names.length > 6 ? 30 : 0, width: 140, overflow: 'truncate', formatter: axisName } },
    yAxis: [
      { type: 'value', name: t('analysis.fig.shippedV20') },
      { type: 'value', name: t('analysis.fig.lossRatePct'), splitLine: { show: false } },
    ],
    series: [
      { name: t('analysis.fig.shippedV20'), type: 'bar', data: rows.map((r) => Math.round(r.shippedV20)), barMaxWidth: 48 },
      { name: t('analysis.fig.lossRatePct'), type: 'line', yAxisIndex: 1, data: rows.map((r) => r.lossRatePct) },
    ],
  };
}

/** The trend chart: one figure over the period's steps, with the same steps a month and a year before overlaid. */
export function trendOption(c: Comparison, key: string, grain: Grain, t: T) {
  const f = figure(key);
  const val = (p: Figures) => f.value(p);
  return {
    animation: false,
    grid: { left: 72, right: 32, top: 48, bottom: 40 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: c.current.points.map((p) => stepLabel(p, grain)) },
    yAxis: { type: 'value', name: t(`analysis.fig.${key}`) },
    series: [
      { name: t('analysis.current'), type: 'line', data: c.current.points.map(val), lineStyle: { width: 3 }, symbolSize: 6 },
      { name: t('analysis.lastMonth'), type: 'line', data: c.lastMonth.points.map(val), lineStyle: { type: 'dashed' } },
      { name: t('analysis.lastYear'), type: 'line', data: c.lastYear.points.map(val), lineStyle: { type: 'dotted' } },
    ],
  };
}
