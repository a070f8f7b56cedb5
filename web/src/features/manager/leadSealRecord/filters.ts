import type { SealFilters } from '../../../api/leadSeal';
import type { TimeRangeValue } from '../../../components/TimeRangePicker';

/** Form values → request filters: the picker's range becomes startTime / endTime (a date-only range covers whole days); texts are trimmed. */
export function toSealFilters(values: Record<string, unknown>): SealFilters {
  const { range, sealNo, waybillNo, ...rest } = values as { range?: TimeRangeValue; sealNo?: string; waybillNo?: string } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (range?.start) out.startTime = range.start.length === 10 ? `${range.start} 00:00:00` : range.start;
  if (range?.end) out.endTime = range.end.length === 10 ? `${range.end} 23:59:59` : range.end;
  if (typeof sealNo === 'string' && sealNo.trim()) out.sealNo = sealNo.trim();
  if (typeof waybillNo === 'string' && waybillNo.trim()) out.waybillNo = waybillNo.trim();
  return out as SealFilters;
}

/** A place: the station's name, else the point (degrees × 10⁶), else ''. */
export function placeOf(name: string, lat: number, lon: number): string {
  if (name) return name;
  if (!lat && !lon) return '';
  return `${(lat / 1e6).toFixed(6)}, ${(lon / 1e6).toFixed(6)}`;
}

/** Tag colours: applied (blue), broken at the destination (green), broken away (red). */
export const STATE_COLOR: Record<number, string> = { 1: 'blue', 2: 'green', 3: 'red' };
/** Incident colours: reused (orange), broken away (red), trip without seals (volcano), mismatch (magenta). */
export const KIND_COLOR: Record<number, string> = { 1: 'orange', 2: 'red', 3: 'volcano', 4: 'magenta' };
