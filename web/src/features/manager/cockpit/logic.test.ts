import { describe, expect, it, vi } from 'vitest';
import { carsParam } from '../monitoring';
import { bandOfPct, bandSeries, carsQuery, debounce, formatDays, formatPct, formatVolume, isStale, pctOf, tankBand, tickerRows } from './logic';

describe('bands', () => {
  it('classifies a share like the server (<5, 5–50, 50–90, ≥90)', () => {
    expect([0, 4.99, 5, 49.9, 50, 89.9, 90, 120].map(bandOfPct)).toEqual(['empty', 'empty', 'low', 'low', 'mid', 'mid', 'high', 'high']);
    expect([null, undefined, -1, NaN].map((p) => bandOfPct(p))).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
  });
  it('a tank without a reading or a capacity has no band', () => {
    expect(tankBand({ at: 0, capacity: 30000, fillPct: 0 })).toBe('unknown');
    expect(tankBand({ at: 1, capacity: 0, fillPct: 50 })).toBe('unknown');
    expect(tankBand({ at: 1, capacity: 30000, fillPct: 3 })).toBe('empty');
  });
  it('orders the bands and fills the missing ones with 0', () => {
    expect(bandSeries([{ band: 'high', count: 3, volume: 1 }, { band: 'empty', count: 1, volume: 0 }])).toEqual([
      { band: 'empty', count: 1 },
      { band: 'low', count: 0 },
      { band: 'mid', count: 0 },
      { band: 'high', count: 3 },
      { band: 'unknown', count: 0 },
    ]);
    expect(bandSeries(undefined).every((b) => b.count === 0)).toBe(true);
  });
});

describe('formatting', () => {
  it('volumes: litres below 100,000, cubic metres above', () => {
    expect(formatVolume(9500.4, 'en-US')).toEqual({ value: '9,500', unit: 'litre' });
    expect(formatVolume(99_999, 'en-US')).toEqual({ value: '99,999', unit: 'litre' });
    expect(formatVolume(100_000, 'en-US')).toEqual({ value: '100.0', unit: 'm3' });
    expect(formatVolume(1_234_567, 'zh-CN')).toEqual({ value: '1,234.6', unit: 'm3' });
    expect(formatVolume(NaN, 'en-US').value).toBe('—');
  });
  it('days of cover: one decimal below 10, unknown is null', () => {
    expect(formatDays(2.345, 'en-US')).toBe('2.3');
    expect(formatDays(12.6, 'en-US')).toBe('13');
    expect(formatDays(0, 'en-US')).toBe('0.0');
    expect(formatDays(-1, 'en-US')).toBeNull();
  });
  it('percentages', () => {
    expect(formatPct(49.6)).toBe('50');
    expect(formatPct(-3)).toBe('0');
    expect(pctOf(1, 3)).toBe(33);
    expect(pctOf(5, 0)).toBe(0);
  });
});

describe('live refresh', () => {
  it('stale only after a successful read that is too old', () => {
    expect(isStale(0, 1_000_000)).toBe(false);
    expect(isStale(1_000_000, 1_050_000)).toBe(false);
    expect(isStale(1_000_000, 1_080_000)).toBe(true);
  });
  it('debounces a burst into one call, but not beyond the ceiling', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      const d = debounce(fn, 3000, 9000);
      let now = 0;
      for (let i = 0; i < 20; i++) {
        d.poke(now);
        vi.advanceTimersByTime(1000);
        now += 1000;
      }
      // a delta every second for 20 s: a read at least every 9 s, not 20 of them
      expect(fn.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(fn.mock.calls.length).toBeLessThanOrEqual(3);
      fn.mockClear();
      d.poke(now);
      d.cancel();
      vi.advanceTimersByTime(10_000);
      expect(fn).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('tiles and tickers', () => {
  it('opens monitoring2 with the ids, which monitoring reads back', () => {
    expect(carsQuery([3, 5, 8])).toBe('&cars=3,5,8');
    expect(carsQuery([])).toBe('');
    expect(carsParam('3,5,8')).toEqual([3, 5, 8]);
    expect(carsParam('x,-1,0')).toBeNull();
    expect(carsParam(null)).toBeNull();
  });
  it('doubles the rows only when they overflow', () => {
    expect(tickerRows([1, 2], true)).toEqual([1, 2, 1, 2]);
    expect(tickerRows([1, 2], false)).toEqual([1, 2]);
    expect(tickerRows([1], true)).toEqual([1]);
  });
});
