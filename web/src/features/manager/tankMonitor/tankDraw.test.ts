import { describe, expect, it } from 'vitest';
import { deviceState, figure, fillFraction, initialCar, liquidRect, SECTION } from './tankDraw';

const c = { hasReading: true, levelMm: 750, heightMm: 1500, volume: 5000, capacity: 10000 };

describe('fillFraction', () => {
  it('uses the level against the height where the height is known', () => {
    expect(fillFraction(c)).toBe(0.5);
    expect(fillFraction({ ...c, levelMm: 300 })).toBeCloseTo(0.2);
  });
  it('falls back to volume over capacity', () => {
    expect(fillFraction({ ...c, heightMm: 0, volume: 2500 })).toBe(0.25);
  });
  it('is null without a reading or anything to compare with', () => {
    expect(fillFraction({ ...c, hasReading: false })).toBeNull();
    expect(fillFraction({ ...c, heightMm: 0, capacity: 0 })).toBeNull();
  });
  it('clamps overfilled and negative', () => {
    expect(fillFraction({ ...c, levelMm: 2000 })).toBe(1);
    expect(fillFraction({ ...c, heightMm: 0, volume: -5 })).toBe(0);
  });
});

describe('liquidRect', () => {
  it('draws the surface at the fraction of the inner height from the bottom', () => {
    const inner = SECTION.height - 2 * SECTION.pad;
    const r = liquidRect(0.5);
    expect(r.height).toBe(inner / 2);
    expect(r.y + r.height).toBe(SECTION.height - SECTION.pad);
    expect(liquidRect(1).y).toBe(SECTION.pad);
  });
  it('is empty for null and 0', () => {
    expect(liquidRect(null).height).toBe(0);
    expect(liquidRect(0).height).toBe(0);
  });
});

describe('deviceState', () => {
  const d = { fitted: true, open: false, locked: false, fault: false };
  it('reads fault before open before locked', () => {
    expect(deviceState({ ...d, fault: true, open: true })).toBe('fault');
    expect(deviceState({ ...d, open: true, locked: true })).toBe('open');
    expect(deviceState({ ...d, locked: true })).toBe('locked');
    expect(deviceState(d)).toBe('closed');
  });
  it('a device not fitted says so whatever its bits', () => {
    expect(deviceState({ ...d, fitted: false, open: true })).toBe('notFitted');
  });
});

describe('figure and initialCar', () => {
  it('formats or dashes', () => {
    expect(figure({ hasReading: true }, 12345.67)).toBe('12,345.7');
    expect(figure({ hasReading: false }, 1)).toBe('—');
  });
  it('takes ?carId= first, then the stored car, ignoring junk', () => {
    expect(initialCar('?carId=12', '7')).toBe(12);
    expect(initialCar('', '7')).toBe(7);
    expect(initialCar('?carId=abc', null)).toBeUndefined();
    expect(initialCar('?carId=-3', '0')).toBeUndefined();
  });
});
