import type { Only, ProductChoice, StatFigures, StatKind, StatRow } from '../../../api/tripStats';
import type { TimeRangeValue } from '../../../components/TimeRangePicker';

/** A figure column of the statistics tables: its key (the sort field), how it reads, and which trips lie behind it. */
export interface FigureColumn {
  key: keyof StatFigures;
  /** the trips a click lists: every trip of the row, or those that make up a count */
  only: Only;
  format: (v: number) => string;
  width: number;
}

const int = (v: number) => v.toLocaleString('en-US');
const litres = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 0 });
const one = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const tonnes = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** The average out-to-arrival in minutes as "h:mm" ("—" when no trip has both times). */
export function minutes(v: number): string {
  if (v < 0) return '—';
  const m = Math.round(v);
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`;
}

export const FIGURES: readonly FigureColumn[] = [
  { key: 'trips', only: '', format: int, width: 80 },
  { key: 'shippedVt', only: '', format: litres, width: 120 },
  { key: 'shippedV20', only: '', format: litres, width: 120 },
  { key: 'shippedT', only: '', format: tonnes, width: 110 },
  { key: 'receivedV20', only: '', format: litres, width: 120 },
  { key: 'lossL', only: '', format: one, width: 100 },
  { key: 'lossRatePct', only: '', format: (v) => `${v.toFixed(4)} %`, width: 110 },
  { key: 'km', only: '', format: one, width: 100 },
  { key: 'tonKm', only: '', format: one, width: 110 },
  { key: 'avgOutToArrivalMin', only: 'timed', format: minutes, width: 120 },
  { key: 'abnormalOpenings', only: 'openings', format: int, width: 110 },
  { key: 'overAllowance', only: 'over', format: int, width: 110 },
];

/** Form values → request filters: the picker's range becomes start / end (whole days). */
export function toStatFilters(values: Record<string, unknown>): { start?: string; end?: string; groupId?: number; carId?: number; productId?: number } {
  const { range, ...rest } = values as { range?: TimeRangeValue } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (range?.start) out.start = `${range.start.slice(0, 10)} 00:00:00`;
  if (range?.end) out.end = `${range.end.slice(0, 10)} 23:59:59`;
  return out;
}

/** What a row is called: a car's plate, a company's or a product's name. */
export function nameKey(kind: StatKind, sales: boolean): string {
  if (kind === 'car') return 'tripStats.plate';
  if (kind === 'product') return 'tripStats.product';
  return sales ? 'tripStats.salesCompany' : 'tripStats.company';
}

/** The chart of a page: the ten largest rows by shipped V20 with their loss, or for products each one's share of V20. */
export function chartOption(kind: StatKind, top: readonly StatRow[], labels: { v20: string; loss: string; share: string }) {
  if (kind === 'product') {
    return {
      tooltip: { trigger: 'item', formatter: '{b}: {c} L ({d}%)' },
      legend: { orient: 'vertical', left: 0, top: 'middle' },
      series: [
        {
          name: labels.share,
          type: 'pie',
          radius: ['40%', '70%'],
          center: ['60%', '50%'],
          // products are each company's own: the company tells two '92#' apart
          data: top.map((r) => ({ name: r.groupName ? `${r.name} · ${r.groupName}` : r.name, value: Math.round(r.shippedV20) })),
        },
      ],
    };
  }
  const rows = [...top].reverse(); // largest on top of a horizontal bar chart
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { data: [labels.v20, labels.loss], top: 0, right: 0 },
    grid: { left: 8, right: 24, top: 56, bottom: 32, containLabel: true },
    // the loss is a few litres against thousands shipped: its own axis on top, so that it shows
    xAxis: [
      { type: 'value', name: labels.v20, nameLocation: 'middle', nameGap: 24, position: 'bottom' },
      { type: 'value', name: labels.loss, nameLocation: 'middle', nameGap: 24, position: 'top', splitLine: { show: false } },
    ],
    yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { interval: 0 } },
    series: [
      { name: labels.v20, type: 'bar', data: rows.map((r) => Math.round(r.shippedV20)), itemStyle: { color: '#1677ff' } },
      { name: labels.loss, type: 'bar', xAxisIndex: 1, data: rows.map((r) => Math.round(r.lossL * 10) / 10), itemStyle: { color: '#fa8c16' } },
    ],
  };
}

/** Whether a number opens its trips: not a zero (no trip behind it), and an average only when some trip was timed. */
export function drillable(f: FigureColumn, v: number, trips: number): boolean {
  if (trips <= 0) return false;
  if (f.only === 'timed') return v >= 0;
  if (f.only) return v > 0;
  return true;
}

/** The product filter's choices; products are each company's own, so the company tells two '92#' apart. */
export function productOptions(products: readonly ProductChoice[] | undefined): { value: number; label: string }[] {
  return (products ?? []).map((p) => ({ value: p.id, label: p.groupName ? `${p.name} · ${p.groupName}` : p.name }));
}
