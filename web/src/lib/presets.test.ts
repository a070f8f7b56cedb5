import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatRange, initialRange, parseRange, PLEASE_SELECT_TIME, PRESETS, presetsFor, rangeOf, resolveDefault } from './presets';
import zh from '../i18n/zh-CN.json';

const now = dayjs('2026-03-18 15:30:00'); // a Wednesday
const fmt = 'YYYY-MM-DD HH:mm:ss';

describe('presets (spec §4, §9)', () => {
  it.each([
    ['last_1_hour', 1, '2026-03-18 14:30:00', '2026-03-18 15:30:00'],
    ['last_2_hours', 2, '2026-03-18 13:30:00', '2026-03-18 15:30:00'],
    ['last_4_hours', 4, '2026-03-18 11:30:00', '2026-03-18 15:30:00'],
    ['last_12_hours', 12, '2026-03-18 03:30:00', '2026-03-18 15:30:00'],
    ['today', 24, '2026-03-18 00:00:00', '2026-03-18 15:30:00'],
    ['yesterday', 24, '2026-03-17 00:00:00', '2026-03-17 23:59:59'],
    ['last_2_days', 48, '2026-03-16 15:30:00', '2026-03-18 15:30:00'],
    ['last_3_days', 72, '2026-03-15 15:30:00', '2026-03-18 15:30:00'],
    ['last_7_days', 168, '2026-03-11 15:30:00', '2026-03-18 15:30:00'],
    ['last_1_month', 720, '2026-02-16 15:30:00', '2026-03-18 15:30:00'],
    ['last_3_months', 2160, '2025-12-18 15:30:00', '2026-03-18 15:30:00'],
    ['last_half_year', 4320, '2025-09-19 15:30:00', '2026-03-18 15:30:00'],
    ['last_1_year', 262800, '2025-03-18 15:30:00', '2026-03-18 15:30:00'],
    ['last_last_week', 168, '2026-03-02 00:00:00', '2026-03-08 23:59:59'],
    ['last_week', 168, '2026-03-09 00:00:00', '2026-03-15 23:59:59'],
    ['this_week', 168, '2026-03-16 00:00:00', '2026-03-18 15:30:00'],
    ['last_last_month', 720, '2026-01-01 00:00:00', '2026-01-31 23:59:59'],
    ['last_month', 720, '2026-02-01 00:00:00', '2026-02-28 23:59:59'],
    ['this_month', 720, '2026-03-01 00:00:00', '2026-03-18 15:30:00'],
  ])('%s: %i h, %s → %s', (tag, hours, start, end) => {
    const p = PRESETS.find((x) => x.tag === tag)!;
    expect(p.hours).toBe(hours);
    expect(p.labelKey).toBe(`preset.${tag}`);
    expect((zh.preset as Record<string, string>)[tag]).toBeTruthy();
    const r = rangeOf(tag, now);
    expect(r.start!.format(fmt)).toBe(start);
    expect(r.end!.format(fmt)).toBe(end);
  });

  it('please_select_time empties both ends', () => {
    expect(formatRange(rangeOf(PLEASE_SELECT_TIME, now), true)).toEqual({ start: '', end: '' });
  });

  it('formats with and without time', () => {
    expect(formatRange(rangeOf('yesterday', now), false)).toEqual({ start: '2026-03-17', end: '2026-03-17' });
    expect(formatRange(rangeOf('yesterday', now), true)).toEqual({ start: '2026-03-17 00:00:00', end: '2026-03-17 23:59:59' });
  });

  it.each([
    [{}, PLEASE_SELECT_TIME],
    [{ this_month: true }, 'this_month'],
    [{ this_month: true, last_1_year: true }, 'last_1_year'],
    [{ today: true, last_7_days: true }, 'last_7_days'],
    [{ last_3_days: true, last_2_days: true, today: true }, 'last_2_days'],
    [{ last_week: true }, PLEASE_SELECT_TIME],
  ])('default resolution %j → %s', (flags, want) => {
    expect(resolveDefault(flags)).toBe(want);
  });

  it('optional presets only when asked', () => {
    expect(presetsFor(false).some((p) => p.tag === 'last_week')).toBe(false);
    expect(presetsFor(true).some((p) => p.tag === 'last_week')).toBe(true);
    expect(presetsFor(false)).toHaveLength(13);
  });
});

describe('parseRange and initialRange', () => {
  it('reads back what formatRange wrote and the form value a picker starts with', () => {
    const now = dayjs('2026-03-01 16:00:00');
    const v = initialRange({ today: true, last_2_days: true }, true, now);
    expect(v).toEqual({ preset: 'last_2_days', start: '2026-02-27 16:00:00', end: '2026-03-01 16:00:00' });
    expect(formatRange(parseRange(v), true)).toEqual({ start: v.start, end: v.end });
    expect(parseRange({ start: '', end: 'nonsense' })).toEqual({ start: null, end: null });
    expect(initialRange({}, false, now)).toEqual({ preset: 'please_select_time', start: '', end: '' });
  });
});
