import type { TimeRangeValue } from '../../../components/TimeRangePicker';
import { initialRange, type PresetTag } from '../../../lib/presets';

/** The filter values every history page shares, and their conversion into request filters. */

/** Default preset of the history pages' pickers (the first of the spec's §4 default order). */
export const HISTORY_DEFAULTS: Partial<Record<PresetTag, boolean>> = { last_2_days: true };

export interface TargetFilters {
  carId?: number;
  phone?: string;
  startTime?: string;
  endTime?: string;
}

/** Initial form values: the default range plus page-specific ones. */
export function historyInitial<E extends object>(extra?: E): { range: TimeRangeValue } & E {
  return { range: initialRange(HISTORY_DEFAULTS, true), ...(extra ?? ({} as E)) };
}

/**
 * Form values → request filters: the picker's range becomes startTime/endTime, the terminal phone is
 * trimmed, and a chosen vehicle wins over a phone (the server's rule, made visible).
 */
export function toHistoryFilters<F extends TargetFilters>(values: Record<string, unknown>): F {
  const { range, phone, carId, ...rest } = values as { range?: TimeRangeValue; phone?: string; carId?: number } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (typeof carId === 'number') out.carId = carId;
  else if (typeof phone === 'string' && phone.trim()) out.phone = phone.trim();
  if (range?.start) out.startTime = range.start;
  if (range?.end) out.endTime = range.end;
  return out as F;
}

/** A query can run once a vehicle or terminal is named. */
export function hasTarget(f: TargetFilters): boolean {
  return (typeof f.carId === 'number' && f.carId > 0) || !!f.phone;
}
