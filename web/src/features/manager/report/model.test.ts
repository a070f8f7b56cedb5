import { describe, expect, it } from 'vitest';
import type { Named } from '../../../api/overview';
import { litres, reportTitle, sumRows } from './model';

const row = (trips: number, v20: number, loss: number): Named =>
  ({ name: '', key: 0, trips, shippedV20: v20, shippedT: v20 / 1350, receivedV20: v20 - loss, lossL: loss, km: 50, tonKm: 0, overAllowance: 0, abnormalOpenings: 0 }) as Named;

describe('operations report', () => {
  it('adds a section up, the rate of the sums', () => {
    // 2 trips 60,000 L losing 3 L, 1 trip 30,000 L losing 6 L: 9 L of 90,000 L = 0.01 %
    const s = sumRows([row(2, 60000, 3), row(1, 30000, 6)]);
    expect(s.trips).toBe(3);
    expect(s.shippedV20).toBe(90000);
    expect(s.receivedV20).toBe(89991);
    expect(s.lossRatePct).toBe(0.01);
    expect(sumRows([]).lossRatePct).toBe(0);
  });
  it('titles the report', () => {
    expect(reportTitle({ from: '2026-11-01', to: '2026-11-30' }, (p) => `华东分公司 月运营报表 ${p}`)).toBe('华东分公司 月运营报表 2026-11-01 ~ 2026-11-30');
    expect(reportTitle({ from: '2026-11-02', to: '2026-11-02' }, (p) => `A daily report ${p}`)).toBe('A daily report 2026-11-02');
  });
  it('prints litres with one decimal', () => {
    expect(litres(1234.56)).toBe('1,234.6');
  });
});
