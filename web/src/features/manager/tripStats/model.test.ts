import { describe, expect, it } from 'vitest';
import type { StatRow } from '../../../api/tripStats';
import { chartOption, drillable, FIGURES, minutes, nameKey, productOptions, toStatFilters } from './model';

const row = (key: number, name: string, v20: number, loss: number): StatRow => ({
  key,
  name,
  trips: 1,
  shippedVt: v20,
  shippedV20: v20,
  shippedT: 0,
  receivedV20: v20 - loss,
  lossL: loss,
  km: 0,
  tonKm: 0,
  timedTrips: 0,
  abnormalOpenings: 0,
  overAllowance: 0,
  lossRatePct: 0,
  avgOutToArrivalMin: -1,
});

describe('tripStats model', () => {
  it('turns the picked range into whole days', () => {
    expect(toStatFilters({ range: { preset: 'this_month', start: '2026-11-01', end: '2026-11-30' }, groupId: 3 })).toEqual({
      start: '2026-11-01 00:00:00',
      end: '2026-11-30 23:59:59',
      groupId: 3,
    });
    expect(toStatFilters({ range: { preset: 'please_select_time', start: '2026-11-01 08:30:00', end: '' } })).toEqual({ start: '2026-11-01 00:00:00' });
  });

  it('writes the average out-to-arrival as h:mm, and a dash when no trip was timed', () => {
    expect(minutes(105)).toBe('1:45');
    expect(minutes(59.6)).toBe('1:00');
    expect(minutes(-1)).toBe('—');
  });

  it('drills a count into the trips that make it up, every other number into all the trips', () => {
    const only = Object.fromEntries(FIGURES.map((f) => [f.key, f.only]));
    expect(only).toMatchObject({ overAllowance: 'over', abnormalOpenings: 'openings', avgOutToArrivalMin: 'timed', shippedV20: '', trips: '' });
    expect(FIGURES).toHaveLength(12);
  });

  it('names the rows after the page', () => {
    expect(nameKey('car', true)).toBe('tripStats.plate');
    expect(nameKey('company', false)).toBe('tripStats.company');
    expect(nameKey('company', true)).toBe('tripStats.salesCompany');
    expect(nameKey('product', true)).toBe('tripStats.product');
  });

  it('charts the top rows largest first, and products as shares', () => {
    const top = [row(1, 'A', 9000, 12.34), row(2, 'B', 5000, 3)];
    const bar = chartOption('car', top, { v20: 'V20', loss: 'loss', share: 'share' }) as {
      yAxis: { data: string[] };
      series: { data: number[] }[];
    };
    // horizontal bars draw the first category at the bottom: the largest goes last
    expect(bar.yAxis.data).toEqual(['B', 'A']);
    expect(bar.series[0].data).toEqual([5000, 9000]);
    expect(bar.series[1].data).toEqual([3, 12.3]);
    const pie = chartOption('product', [top[0], { ...top[1], groupName: '华东' }], { v20: 'V20', loss: 'loss', share: 'share' }) as { series: { type: string; data: { name: string; value: number }[] }[] };
    expect(pie.series[0].type).toBe('pie');
    expect(pie.series[0].data).toEqual([
      { name: 'A', value: 9000 },
      { name: 'B · 华东', value: 5000 },
    ]);
  });

  it('opens the trips of a number only when some trip lies behind it', () => {
    const col = (k: string) => FIGURES.find((f) => f.key === k)!;
    expect(drillable(col('shippedV20'), 0, 0)).toBe(false);
    expect(drillable(col('lossL'), -3, 2)).toBe(true);
    expect(drillable(col('overAllowance'), 0, 5)).toBe(false);
    expect(drillable(col('overAllowance'), 1, 5)).toBe(true);
    expect(drillable(col('avgOutToArrivalMin'), -1, 5)).toBe(false);
    expect(drillable(col('avgOutToArrivalMin'), 0, 5)).toBe(true);
  });
});

describe('product filter choices', () => {
  it('names each product with its company, and is empty before the first answer', () => {
    expect(productOptions(undefined)).toEqual([]);
    expect(productOptions([{ id: 3, name: '92#汽油', groupName: '华东分公司', trips: 4 }, { id: 4, name: '0#柴油', groupName: '', trips: 1 }])).toEqual([
      { value: 3, label: '92#汽油 · 华东分公司' },
      { value: 4, label: '0#柴油' },
    ]);
  });
});
