import type { Figures, StatBy, StatKind, StatPageName, StatPeriod, StatQuery, StatRow } from '../../../api/lockStats';
import type { TimeRangeValue } from '../../../components/TimeRangePicker';

/** What each page reads and how it groups (menu 04-34 … 04-40). */
export const PAGES: Record<StatPageName, { kind: StatKind; period: StatPeriod }> = {
  blueLockStat: { kind: 'lock', period: 'day' },
  blueLockStat2: { kind: 'lock', period: 'all' },
  blueLockWeekStat: { kind: 'lock', period: 'week' },
  blueLockMonthStat: { kind: 'lock', period: 'month' },
  sealRecordStat: { kind: 'seal', period: 'day' },
  sealRecordWeekStat: { kind: 'seal', period: 'week' },
  sealRecordMonthStat: { kind: 'seal', period: 'month' },
};

/** The figures of a kind in the order the table shows them; `group` puts columns under one header. */
export interface FigureColumn {
  key: string;
  group?: 'method' | 'fence';
  duration?: boolean;
}

export const FIGURES: Record<StatKind, FigureColumn[]> = {
  lock: [
    { key: 'opened' },
    { key: 'openedRemote', group: 'method' },
    { key: 'openedBle', group: 'method' },
    { key: 'openedKey', group: 'method' },
    { key: 'openedOther', group: 'method' },
    { key: 'openedInside', group: 'fence' },
    { key: 'openedOutside', group: 'fence' },
    { key: 'closed' },
    { key: 'tampered' },
    { key: 'lowBattery' },
    { key: 'offlineEvents' },
    { key: 'offlineS', duration: true },
  ],
  seal: [{ key: 'applied' }, { key: 'brokenDest' }, { key: 'brokenAway' }, { key: 'reused' }, { key: 'noSeals' }, { key: 'mismatch' }],
};

/** The groupings a page offers: the per-lock page is per lock only; seals have no lock. */
export function groupings(page: StatPageName): StatBy[] {
  if (page === 'blueLockStat2') return ['lock'];
  return ['car', 'group'];
}

/** Form values → request filters: the picker's dates become whole days; a blank serial is no filter. */
export function toStatFilters(values: Record<string, unknown>): Omit<StatQuery, 'pageNum' | 'pageSize'> {
  const { range, serial, ...rest } = values as { range?: TimeRangeValue; serial?: string } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (range?.start) out.start = `${range.start.slice(0, 10)} 00:00:00`;
  if (range?.end) out.end = `${range.end.slice(0, 10)} 23:59:59`;
  if (typeof serial === 'string' && serial.trim()) out.serial = serial.trim();
  return out as Omit<StatQuery, 'pageNum' | 'pageSize'>;
}

/** A row's stable key (period and what it counts). */
export function rowKey(r: StatRow): string {
  return `${r.period}:${r.carId ?? ''}:${r.groupId ?? ''}:${r.serial ?? ''}`;
}

/** Seconds as hours, minutes and seconds. */
export function splitDuration(s: number): { h: number; m: number; s: number } {
  const v = Math.max(0, Math.floor(s));
  return { h: Math.floor(v / 3600), m: Math.floor((v % 3600) / 60), s: v % 60 };
}

/** The series of the chart: openings by method stacked, and inside / outside fences; seals by outcome. */
export function chartSeries(kind: StatKind): { key: string; stack: string }[] {
  if (kind === 'lock') {
    return [
      { key: 'openedRemote', stack: 'method' },
      { key: 'openedBle', stack: 'method' },
      { key: 'openedKey', stack: 'method' },
      { key: 'openedOther', stack: 'method' },
      { key: 'openedInside', stack: 'fence' },
      { key: 'openedOutside', stack: 'fence' },
    ];
  }
  return [
    { key: 'applied', stack: 'applied' },
    { key: 'brokenDest', stack: 'broken' },
    { key: 'brokenAway', stack: 'broken' },
    { key: 'reused', stack: 'incident' },
    { key: 'noSeals', stack: 'incident' },
    { key: 'mismatch', stack: 'incident' },
  ];
}

const COLORS: Record<string, string> = {
  openedRemote: '#1677ff', openedBle: '#13c2c2', openedKey: '#fa8c16', openedOther: '#bfbfbf',
  openedInside: '#52c41a', openedOutside: '#f5222d',
  applied: '#1677ff', brokenDest: '#52c41a', brokenAway: '#f5222d', reused: '#fa8c16', noSeals: '#722ed1', mismatch: '#eb2f96',
};

/**
 * The chart's option: one bar group per period (the per-lock page: per lock of the page shown, top
 * ten by openings), stacks as chartSeries says. `label` names a figure.
 */
export function chartOption(kind: StatKind, period: StatPeriod, chart: StatRow[], list: StatRow[], label: (key: string) => string, stackName: (stack: string) => string) {
  const rows = period === 'all' ? [...list].sort((a, b) => (b.figures.opened ?? 0) - (a.figures.opened ?? 0)).slice(0, 10) : chart;
  const cats = rows.map((r) => (period === 'all' ? r.name : r.label.replace(/ \(.*\)$/, '')));
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 48, right: 16, top: 40, bottom: 28, containLabel: true },
    xAxis: { type: 'category', data: cats },
    yAxis: { type: 'value', minInterval: 1 },
    series: chartSeries(kind).map((s, _, all) => ({
      // a stack of one figure needs no stack name
      name: all.filter((o) => o.stack === s.stack).length > 1 ? `${stackName(s.stack)} · ${label(s.key)}` : label(s.key),
      type: 'bar',
      stack: s.stack,
      barMaxWidth: 28,
      itemStyle: { color: COLORS[s.key] },
      data: rows.map((r) => r.figures[s.key] ?? 0),
    })),
  };
}

/** Whether a set of figures counts anything. */
export function anyFigure(f: Figures | undefined): boolean {
  return !!f && Object.values(f).some((v) => v > 0);
}
