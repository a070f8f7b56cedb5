import type { CarCount, DayCount, TypeCount } from '../../../api/alarm';
import { percentages } from '../../../lib/percent';
import type { ChartOption } from './Chart';

/** Pure option builders (tested without a canvas). */

/**
 * The share of each type: our percentages (lib/percent: they add up to 100 and a type with one alarm
 * never reads 0 %) rather than ECharts' {d}, in the tooltip and the legend.
 */
export function pieOption(rows: TypeCount[], seriesName: string): ChartOption {
  const pct = percentages(rows.map((r) => r.count));
  const byName = new Map(rows.map((r, i) => [r.name, pct[i]]));
  return {
    tooltip: { trigger: 'item', formatter: (p: { name: string; value: number; dataIndex: number }) => `${p.name}: ${p.value} (${pct[p.dataIndex]}%)` },
    legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle', formatter: (name: string) => `${name} ${byName.get(name) ?? 0}%` },
    series: [{ name: seriesName, type: 'pie', radius: ['35%', '65%'], center: ['38%', '50%'], data: rows.map((r) => ({ name: r.name, value: r.count })) }],
  };
}

export function rankingOption(rows: CarCount[], seriesName: string): ChartOption {
  const top = [...rows].reverse(); // the largest bar on top
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 90, right: 24, top: 8, bottom: 24 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: top.map((r) => r.carNumber) },
    series: [{ name: seriesName, type: 'bar', data: top.map((r) => r.count), itemStyle: { color: '#e8684a' } }],
  };
}

/** One line per type over every day of the range that has alarms (days without a type's alarm are 0). */
export function lineOption(rows: DayCount[]): ChartOption {
  const days = [...new Set(rows.map((r) => r.day))].sort();
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const r of rows) {
    names.set(r.type, r.name);
    counts.set(`${r.type}/${r.day}`, r.count);
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 40, right: 24, top: 36, bottom: 24 },
    xAxis: { type: 'category', data: days },
    yAxis: { type: 'value', minInterval: 1 },
    series: [...names].map(([type, name]) => ({ name, type: 'line', smooth: true, data: days.map((d) => counts.get(`${type}/${d}`) ?? 0) })),
  };
}
