import type { TFunction } from 'i18next';
import type { CommandStatus, LockEvent, LockEventQuery } from '../../../api/lockEvents';
import type { TimeRangeValue } from '../../../components/TimeRangePicker';

export type EventFilters = Omit<LockEventQuery, 'pageNum' | 'pageSize'>;

/** Event codes (lock.Event*) and method codes (lock.Method*) the filters offer. */
export const EVENTS = [1, 2, 3, 4, 5, 6] as const;
export const METHODS = [0, 1, 2, 3] as const;
export const STATUSES: CommandStatus[] = ['pending', 'ok', 'timeout', 'failed', 'offline'];

/** Form values → request filters: the picker's range becomes startTime / endTime (a date-only range covers whole days). */
export function toTimeFilters<T extends object>(values: Record<string, unknown>): T {
  const { range, plate, serial, ...rest } = values as { range?: TimeRangeValue; plate?: string; serial?: string } & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (range?.start) out.startTime = range.start.length === 10 ? `${range.start} 00:00:00` : range.start;
  if (range?.end) out.endTime = range.end.length === 10 ? `${range.end} 23:59:59` : range.end;
  if (typeof plate === 'string' && plate.trim()) out.plate = plate.trim();
  if (typeof serial === 'string' && serial.trim()) out.serial = serial.trim();
  return out as T;
}

/** Where an event happened: the station whose fence holds it, else the place's name, else the coordinates. */
export function placeOf(e: Pick<LockEvent, 'stationId' | 'stationName' | 'address' | 'lat' | 'lon'>, t: TFunction): string {
  if (e.stationId > 0) return e.stationName;
  if (e.address) return e.address;
  if (e.lat || e.lon) return `${e.lat.toFixed(5)}, ${e.lon.toFixed(5)}`;
  return t('lockEvents.noPlace');
}

/** An event worth a second look: tampering, or an opening outside every fence. */
export function isAlarming(e: Pick<LockEvent, 'event' | 'stationId'>): boolean {
  return e.event === 3 || (e.event === 1 && e.stationId === 0);
}

export const EVENT_COLORS: Record<number, string> = { 1: 'blue', 2: 'green', 3: 'red', 4: 'orange', 5: 'default', 6: 'cyan' };
export const STATUS_COLORS: Record<CommandStatus, string> = { pending: 'processing', ok: 'success', timeout: 'warning', failed: 'error', offline: 'default' };

/** The compartments a command asks for, from the form's checkboxes: none ticked means all. */
export function compartmentsOf(values: { all?: boolean; compartments?: number[] }): number[] {
  if (values.all || !values.compartments?.length) return [];
  return [...values.compartments].sort((a, b) => a - b);
}
