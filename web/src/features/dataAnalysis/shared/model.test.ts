import { describe, expect, it } from 'vitest';
import type { Comparison, Figures, Row } from './api';
import { FIGURES, axisName, fmt, fmtChange, rowFilter, stepLabel, trendOption, tripSum } from './model';

const figs = (o: Partial<Figures> = {}): Figures => ({
  key: 0, trips: 0, shippedVt: 0, shippedV20: 0, shippedT: 0, receivedV20: 0, lossL: 0, km: 0, tonKm: 0, timedTrips: 0,
  abnormalOpenings: 0, overAllowance: 0, lossRatePct: 0, avgOutToArrivalMin: -1, tampering: null, sealIncidents: null, ...o,
});

describe('analysis model', () => {
  it('prints a change, and — when there is nothing to compare with (never ∞)', () => {
    expect(fmtChange(null)).toBe('—');
    expect(fmtChange(undefined)).toBe('—');
    expect(fmtChange(2200)).toBe('+2200.0 %');
    expect(fmtChange(-66.7)).toBe('-66.7 %');
    expect(fmtChange(0)).toBe('0.0 %');
  });
  it('prints figures, unknown ones as —', () => {
    expect(fmt(23000, 1)).toBe('23,000.0');
    expect(fmt(null, 0)).toBe('—');
    const avg = FIGURES.find((f) => f.key === 'avgOutToArrivalMin')!;
    expect(avg.value(figs())).toBeNull();
    expect(avg.value(figs({ avgOutToArrivalMin: 120 }))).toBe(120);
    expect(FIGURES.find((f) => f.key === 'tampering')!.only).toBeUndefined();
  });
  it('labels steps and picks a row\'s trips', () => {
    expect(stepLabel({ from: 20261130, to: 20261206 }, 'week')).toBe('11-30~12-06');
    expect(stepLabel({ from: 20261201, to: 20261231 }, 'month')).toBe('2026-12');
    expect(stepLabel({ from: 20270101, to: 20270101 }, 'day')).toBe('01-01');
    const r = { ...figs({ key: 7 }), name: 'x', depotId: 3, stationId: 0 } as Row;
    expect(rowFilter('company', r)).toEqual({ companyId: 7 });
    expect(rowFilter('product', r)).toEqual({ productId: 7 });
    expect(rowFilter('route', r)).toEqual({ depotId: 3, stationId: 0 });
    expect(axisName('油库 → 一站')).toBe('一站');
    expect(axisName('华东分公司')).toBe('华东分公司');
    expect(tripSum('abnormalOpenings', [{ shippedV20: 1, lossL: 2, openings: 2 }, { shippedV20: 1, lossL: 2, openings: 0 }])).toBe(2);
  });
  it('overlays last month and last year on the period', () => {
    const s = (n: number) => ({ period: { from: 0, to: 0 }, totals: figs(), points: [{ ...figs({ trips: n }), from: 20261101, to: 20261101 }] });
    const c: Comparison = { current: s(3), lastMonth: s(1), lastYear: s(0), mom: {}, yoy: {} };
    const o = trendOption(c, 'trips', 'day', (k) => k);
    expect(o.series.map((x) => x.data[0])).toEqual([3, 1, 0]);
    expect(o.xAxis.data).toEqual(['11-01']);
  });
});
