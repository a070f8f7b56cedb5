import type { AlarmFilters } from '../../../api/alarm';
import type { TimeRangeValue } from '../../../components/TimeRangePicker';
import { initialRange, type PresetTag } from '../../../lib/presets';

/** The alarm pages open on the last 7 days. */
export const ALARM_DEFAULTS: Partial<Record<PresetTag, boolean>> = { last_7_days: true };

export const alarmInitial = () => ({ range: initialRange(ALARM_DEFAULTS, true) as TimeRangeValue });

/** Form values → request filters: the picker's range becomes startTime/endTime, single choices become lists. */
export function toAlarmFilters(values: Record<string, unknown>): AlarmFilters {
  const { range, carNumber, type, level, state, ...rest } = values as {
    range?: TimeRangeValue;
    carNumber?: string;
    type?: string;
    level?: number;
    state?: number;
  } & Record<string, unknown>;
  const out: AlarmFilters = { ...(rest as AlarmFilters) };
  if (typeof carNumber === 'string' && carNumber.trim()) out.carNumber = carNumber.trim();
  if (type) out.types = [type];
  if (typeof level === 'number') out.levels = [level];
  if (typeof state === 'number') out.states = [state];
  if (range?.start && range?.end) {
    out.startTime = range.start;
    out.endTime = range.end;
  }
  return out;
}
