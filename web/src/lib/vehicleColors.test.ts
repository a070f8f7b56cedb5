import { describe, expect, it } from 'vitest';
import {
  clusterColor,
  COUNT_CODES,
  countCodeColor,
  markerStyle,
  matchesCode,
  statusName,
  toCountCode,
  VEHICLE_PALETTE,
  vehicleColor,
} from './vehicleColors';

describe('VEHICLE_PALETTE', () => {
  it('has the 13 colours of spec §9, all distinct', () => {
    const values = Object.values(VEHICLE_PALETTE);
    expect(values).toHaveLength(13);
    expect(new Set(values).size).toBe(13);
  });
});

describe('statusName / vehicleColor', () => {
  it.each([
    [{ code: 4, abnormal: false }, 'moving'],
    [{ code: 5, abnormal: false }, 'resting'],
    [{ code: 7, abnormal: false }, 'offline'],
    [{ code: 4, abnormal: true }, 'abnormal'],
    [{ code: 7, abnormal: true }, 'abnormal'],
    [{ code: 0 }, 'unknown'],
    [{}, 'unknown'],
    [null, 'unknown'],
  ])('%j → %s', (car, want) => {
    expect(statusName(car)).toBe(want);
    expect(vehicleColor(car)).toBe(VEHICLE_PALETTE[want as keyof typeof VEHICLE_PALETTE]);
  });
});

describe('markerStyle', () => {
  it('rings only the selected car, keeping its status fill', () => {
    expect(markerStyle({ code: 4 })).toMatchObject({ fill: VEHICLE_PALETTE.moving, ring: null });
    const sel = markerStyle({ code: 4 }, true);
    expect(sel).toMatchObject({ fill: VEHICLE_PALETTE.moving, ring: VEHICLE_PALETTE.selected });
    expect(sel.strokeWidth).toBeGreaterThan(markerStyle({ code: 4 }).strokeWidth);
  });
});

describe('clusterColor', () => {
  it('grows with the count', () => {
    expect(clusterColor(2)).toBe(VEHICLE_PALETTE.clusterSmall);
    expect(clusterColor(10)).toBe(VEHICLE_PALETTE.clusterMedium);
    expect(clusterColor(99)).toBe(VEHICLE_PALETTE.clusterMedium);
    expect(clusterColor(100)).toBe(VEHICLE_PALETTE.clusterLarge);
  });
});

describe('count codes', () => {
  it('are 8, 4, 5, 7, 3 with the status colours', () => {
    expect([...COUNT_CODES]).toEqual([8, 4, 5, 7, 3]);
    expect(countCodeColor(4)).toBe(VEHICLE_PALETTE.moving);
    expect(countCodeColor(3)).toBe(VEHICLE_PALETTE.abnormal);
    expect(countCodeColor(8)).toBe(VEHICLE_PALETTE.selected);
  });

  it.each([
    ['4', 4],
    [4, 4],
    ['8', 8],
    ['3', 3],
    ['6', null],
    ['', null],
    [undefined, null],
    ['abc', null],
  ])('toCountCode(%j) → %s', (v, want) => {
    expect(toCountCode(v)).toBe(want);
  });

  it('matchesCode: 8 all, 4/5/7 by code, 3 abnormal across codes', () => {
    const moving = { code: 4, abnormal: false };
    const badOffline = { code: 7, abnormal: true };
    expect(matchesCode(moving, 8)).toBe(true);
    expect(matchesCode(moving, null)).toBe(true);
    expect(matchesCode(moving, 4)).toBe(true);
    expect(matchesCode(moving, 5)).toBe(false);
    expect(matchesCode(moving, 3)).toBe(false);
    expect(matchesCode(badOffline, 3)).toBe(true);
    expect(matchesCode(badOffline, 7)).toBe(true);
    expect(matchesCode(undefined, 4)).toBe(false);
  });
});
