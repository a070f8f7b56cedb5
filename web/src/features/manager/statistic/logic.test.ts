import { describe, expect, it } from 'vitest';
import type { Tiles } from '../../../api/overview';
import { change, fmt, TILES, tone } from './logic';

describe('statistic tiles', () => {
  it('computes the change against the previous period', () => {
    expect(change(110, 100)).toBe(10);
    expect(change(90, 120)).toBe(-25);
    expect(change(1, 3)).toBe(-66.7);
    expect(change(5, 0)).toBeNull(); // nothing to compare with
    expect(change(-1, 30)).toBeNull(); // an average without timed trips
  });
  it('colours a rise of a loss red and a rise of trips green', () => {
    expect(tone(12, true)).toBe('up-bad');
    expect(tone(12, false)).toBe('up-good');
    expect(tone(-3, true)).toBe('down-good');
    expect(tone(-3, false)).toBe('down-bad');
    expect(tone(null, true)).toBe('flat');
    expect(tone(0)).toBe('flat');
  });
  it('formats figures', () => {
    expect(fmt(1234567.25, 0, 'en-US')).toBe('1,234,567');
    expect(fmt(0.01234, 4, 'en-US')).toBe('0.0123');
    expect(fmt(-1, 1)).toBe('—');
  });
  it('reads every tile from the tiles, over-allowance drilling to the over trips', () => {
    const t = {
      trips: 3, shippedV20: 90000, shippedT: 70, receivedV20: 89990, lossL: 10, lossRatePct: 0.0111, tonKm: 2100, km: 90,
      avgOutToArrivalMin: 55.5, overAllowance: 1, abnormalOpenings: 2, lockTampered: 4, sealIncidents: 5,
    } as Tiles;
    expect(TILES.map((d) => d.value(t))).toEqual([3, 90000, 70, 89990, 10, 0.0111, 2100, 90, 55.5, 1, 2, 4, 5]);
    expect(TILES.find((d) => d.key === 'overAllowance')?.drill).toEqual({ kind: 'trips', over: true });
    expect(new Set(TILES.map((d) => d.key)).size).toBe(TILES.length);
  });
});
