import dayjs, { type Dayjs } from 'dayjs';
import { zoneNow } from './zone';

/** Spec §4/§9 time-range presets. */
export const PLEASE_SELECT_TIME = 'please_select_time';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export type PresetTag =
  | 'last_1_hour' | 'last_2_hours' | 'last_4_hours' | 'last_12_hours' | 'today' | 'yesterday'
  | 'last_2_days' | 'last_3_days' | 'last_7_days' | 'last_1_month' | 'last_3_months' | 'last_half_year'
  | 'last_1_year' | 'last_last_week' | 'last_week' | 'this_week' | 'last_last_month' | 'last_month' | 'this_month';

export interface Preset {
  tag: PresetTag;
  /** i18n key of the label: `preset.<tag>`. */
  labelKey: string;
  /** Duration in hours as the spec lists it (note: the spec gives 262800 for last_1_year). */
  hours: number;
  /** Optional presets (calendar weeks/months) are shown only when a picker asks for them. */
  optional: boolean;
  start: (now: Dayjs) => Dayjs;
  end: (now: Dayjs) => Dayjs;
}

/** Monday 00:00 of the week containing `d` (weeks start on Monday). */
export function startOfIsoWeek(d: Dayjs): Dayjs {
  return d.startOf('day').subtract((d.day() + 6) % 7, 'day');
}

const rolling = (tag: PresetTag, hours: number, start: (now: Dayjs) => Dayjs): Preset => ({
  tag, labelKey: `preset.${tag}`, hours, optional: false, start, end: (now) => now,
});
const fixed = (tag: PresetTag, hours: number, start: (now: Dayjs) => Dayjs, end: (now: Dayjs) => Dayjs, optional = true): Preset => ({
  tag, labelKey: `preset.${tag}`, hours, optional, start, end,
});

export const PRESETS: readonly Preset[] = [
  rolling('last_1_hour', 1, (n) => n.subtract(1, 'hour')),
  rolling('last_2_hours', 2, (n) => n.subtract(2, 'hour')),
  rolling('last_4_hours', 4, (n) => n.subtract(4, 'hour')),
  rolling('last_12_hours', 12, (n) => n.subtract(12, 'hour')),
  rolling('today', 24, (n) => n.startOf('day')),
  fixed('yesterday', 24, (n) => n.subtract(1, 'day').startOf('day'), (n) => n.subtract(1, 'day').endOf('day'), false),
  rolling('last_2_days', 48, (n) => n.subtract(48, 'hour')),
  rolling('last_3_days', 72, (n) => n.subtract(72, 'hour')),
  rolling('last_7_days', 168, (n) => n.subtract(168, 'hour')),
  rolling('last_1_month', 720, (n) => n.subtract(720, 'hour')),
  rolling('last_3_months', 2160, (n) => n.subtract(2160, 'hour')),
  rolling('last_half_year', 4320, (n) => n.subtract(4320, 'hour')),
  rolling('last_1_year', 262800, (n) => n.subtract(1, 'year')),
  fixed('last_last_week', 168, (n) => startOfIsoWeek(n).subtract(14, 'day'), (n) => startOfIsoWeek(n).subtract(7, 'day').subtract(1, 'second')),
  fixed('last_week', 168, (n) => startOfIsoWeek(n).subtract(7, 'day'), (n) => startOfIsoWeek(n).subtract(1, 'second')),
  fixed('this_week', 168, (n) => startOfIsoWeek(n), (n) => n),
  fixed('last_last_month', 720, (n) => n.startOf('month').subtract(2, 'month'), (n) => n.startOf('month').subtract(2, 'month').endOf('month')),
  fixed('last_month', 720, (n) => n.startOf('month').subtract(1, 'month'), (n) => n.startOf('month').subtract(1, 'month').endOf('month')),
  fixed('this_month', 720, (n) => n.startOf('month'), (n) => n),
];

export const DEFAULT_ORDER: readonly PresetTag[] = ['last_2_days', 'last_3_days', 'last_7_days', 'today', 'last_1_year', 'this_month'];

export function findPreset(tag: string): Preset | undefined {
  return PRESETS.find((p) => p.tag === tag);
}

/** Presets offered by a picker: the standard ones plus, if asked, the optional calendar ones. */
export function presetsFor(includeOptional: boolean): Preset[] {
  return PRESETS.filter((p) => includeOptional || !p.optional);
}

/** When several default flags are set the first in DEFAULT_ORDER wins; none → please_select_time. */
export function resolveDefault(flags: Partial<Record<PresetTag, boolean>>): PresetTag | typeof PLEASE_SELECT_TIME {
  return DEFAULT_ORDER.find((tag) => flags[tag]) ?? PLEASE_SELECT_TIME;
}

export function formatFor(showTime: boolean): string {
  return showTime ? DATE_TIME_FORMAT : DATE_FORMAT;
}

export interface Range {
  start: Dayjs | null;
  end: Dayjs | null;
}

/** The range a preset fills; please_select_time (or an unknown tag) empties both ends. */
export function rangeOf(tag: string, now: Dayjs = zoneNow()): Range {
  const p = findPreset(tag);
  if (!p) return { start: null, end: null };
  return { start: p.start(now), end: p.end(now) };
}

export function formatRange(range: Range, showTime: boolean): { start: string; end: string } {
  const f = formatFor(showTime);
  return { start: range.start ? range.start.format(f) : '', end: range.end ? range.end.format(f) : '' };
}

/** The inverse of formatRange ('YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss'): '' is an empty end; an unreadable text too. */
export function parseRange(v: { start: string; end: string }): Range {
  const read = (s: string) => {
    if (!s) return null;
    const d = dayjs(s);
    return d.isValid() ? d : null;
  };
  return { start: read(v.start), end: read(v.end) };
}

/** The value a picker with these default flags starts with (for a form's initial values). */
export function initialRange(flags: Partial<Record<PresetTag, boolean>>, showTime: boolean, now: Dayjs = zoneNow()) {
  const preset = resolveDefault(flags);
  return { preset, ...formatRange(rangeOf(preset, now), showTime) };
}
