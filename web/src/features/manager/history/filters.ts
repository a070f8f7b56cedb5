import type { Page } from '../../../api/types';
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

/** A page whose rows carry `_key` (rows of the history tables have no id of their own). */
export type Keyed<T> = T & { _key: string };

export function keyed<T>(page: Page<T>, key: (row: T, i: number) => string): Page<Keyed<T>> {
  return { ...page, list: page.list.map((r, i) => ({ ...r, _key: key(r, i) })) };
}

/** The key of a positions or tank-states row: its primary key (car, device time, terminal). */
export const timeKey = (r: { carId: number; time: string; terminalId: number }) => `${r.carId}/${r.time}/${r.terminalId}`;

/**
 * The list-page props every vehicle-or-terminal history page shares: the default range (plus `initial`
 * values of the page's own filters), the form → request conversion (with `fixed` values always sent),
 * no query before a target is named, the export.
 */
export function historyListProps<F extends TargetFilters>(idleText: string, opts: { initial?: object; fixed?: object; convert?: (f: F) => F } = {}) {
  return {
    initialFilters: historyInitial({ ...opts.initial, ...opts.fixed }) as unknown as Partial<F>,
    toFilters: (v: Record<string, unknown>) => {
      const f = toHistoryFilters<F>({ ...v, ...opts.fixed });
      return opts.convert ? opts.convert(f) : f;
    },
    enabled: hasTarget,
    idleText,
    exportAlways: true,
  };
}
