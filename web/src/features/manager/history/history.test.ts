import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { hasTarget, historyInitial, toHistoryFilters } from './filters';
import { coordText, durationText, frameSecond, levelText, loadOf, normalizeMsgId } from './format';

const t = i18n.t.bind(i18n);

describe('history filters', () => {
  it('turns the form values into request filters; a vehicle wins over a phone', () => {
    const range = { preset: 'last_2_days' as const, start: '2026-02-27 16:00:00', end: '2026-03-01 16:00:00' };
    expect(toHistoryFilters({ range, carId: 5, phone: '138', msgId: '0x0200' })).toEqual({ carId: 5, msgId: '0x0200', startTime: range.start, endTime: range.end });
    expect(toHistoryFilters({ range, phone: ' 13852600104 ' })).toEqual({ phone: '13852600104', startTime: range.start, endTime: range.end });
    expect(toHistoryFilters({ range: { preset: 'please_select_time', start: '', end: '' }, phone: '  ' })).toEqual({});
    expect(hasTarget({ carId: 5 })).toBe(true);
    expect(hasTarget({ phone: '138' })).toBe(true);
    expect(hasTarget({ startTime: 'x' })).toBe(false);
    const init = historyInitial({ table: 'positions' });
    expect(init.table).toBe('positions');
    expect(init.range.preset).toBe('last_2_days');
    expect(init.range.start).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});

describe('history formatting', () => {
  it('reads message ids as the server does', () => {
    expect(normalizeMsgId('0x0200')).toBe('0x0200');
    expect(normalizeMsgId('200')).toBe('0x0200');
    expect(normalizeMsgId(' 8001 ')).toBe('0x8001');
    expect(normalizeMsgId('0XE')).toBe('0x000E');
    expect(normalizeMsgId('')).toBe('');
    expect(normalizeMsgId('0x12345')).toBeNull();
    expect(normalizeMsgId('zz')).toBeNull();
  });

  it('formats positions, load bits, levels and durations', () => {
    expect(coordText(121.4737012, 31.23)).toBe('121.473701, 31.230000');
    expect(coordText('', '')).toBe('');
    expect(coordText(0, 0)).toBe('');
    expect([0, 1 << 8, 2 << 8, 3 << 8 | 3].map(loadOf)).toEqual(['empty', 'half', '', 'full']);
    expect(levelText(t, { compartment: 2, levelMm: 1500, volumeL: 12000, temperature: 21 })).toBe('2 号仓：1500 mm / 12000 L / 21.0 °C');
    expect(durationText(t, 40.94)).toBe('40.9 分钟');
    expect(durationText(t, 1.5)).toBe('1.5 分钟');
    expect(durationText(t, 59.96)).toBe('60 分钟');
    expect(durationText(t, 125)).toBe('2 小时 5 分钟');
    expect(durationText(t, -3)).toBe('0 分钟');
  });

  it('gives the second of a stored frame as a range for the raw-data call', () => {
    expect(frameSecond('2026-03-01 16:00:02')).toEqual({ startTime: '2026-03-01 16:00:02', endTime: '2026-03-01 16:00:03' });
    expect(frameSecond('2026-03-01 16:59:59')).toEqual({ startTime: '2026-03-01 16:59:59', endTime: '2026-03-01 17:00:00' });
    expect(frameSecond('2026-02-28 23:59:59')).toEqual({ startTime: '2026-02-28 23:59:59', endTime: '2026-03-01 00:00:00' });
  });
});
