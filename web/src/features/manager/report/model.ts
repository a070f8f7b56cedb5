import type { Named, Report } from '../../../api/overview';

/** Sums the rows of a section (the check that a section adds up to the summary is the reader's: a totals row). */
export function sumRows(rows: Named[]) {
  const out = { trips: 0, shippedV20: 0, shippedT: 0, receivedV20: 0, lossL: 0, km: 0, tonKm: 0, overAllowance: 0, abnormalOpenings: 0 };
  for (const r of rows) {
    out.trips += r.trips;
    out.shippedV20 += r.shippedV20;
    out.shippedT += r.shippedT;
    out.receivedV20 += r.receivedV20;
    out.lossL += r.lossL;
    out.km += r.km;
    out.tonKm += r.tonKm;
    out.overAllowance += r.overAllowance;
    out.abnormalOpenings += r.abnormalOpenings;
  }
  return { ...out, lossRatePct: out.shippedV20 > 0 ? Math.round((out.lossL / out.shippedV20) * 100 * 10000) / 10000 : 0 };
}

/** The report's title: heading(period) with the period as one day or 'from ~ to'. */
export function reportTitle(r: Pick<Report, 'from' | 'to'>, heading: (period: string) => string): string {
  return heading(r.from === r.to ? r.from : `${r.from} ~ ${r.to}`);
}

/** A number for a printed table: grouped thousands, fixed digits. */
export function num(v: number, digits: number): string {
  return v.toLocaleString('zh-CN', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Litres for a printed table: grouped, one decimal. */
export function litres(v: number): string {
  return num(v, 1);
}
