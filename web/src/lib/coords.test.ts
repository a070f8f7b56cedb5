import { describe, expect, it } from 'vitest';
import { isValidCoords } from './coords';
import { guardedReverseGeocode, isGeocodable } from './geocode';

describe('isValidCoords (spec §5)', () => {
  it.each([
    [116.4, 39.9, true],
    ['116.4', '39.9', true],
    ['', '39.9', false],
    [116.4, '', false],
    [0, 39.9, false],
    ['0', '39.9', false],
    ['116.4', '0.0', false],
    ['abc', '39.9', false],
    [NaN, 39.9, false],
    [null, 39.9, false],
    [undefined, undefined, false],
    [-73.9, -40.1, true],
  ])('(%s, %s) → %s', (lng, lat, want) => {
    expect(isValidCoords(lng, lat)).toBe(want);
  });
});

describe('reverse geocode guard', () => {
  it.each([
    ['116.4', '39.9', true],
    ['0', '39.9', false],
    ['116.4', '0', false],
    ['', '39.9', false],
    [null, '39.9', false],
  ])('(%s, %s) geocodable=%s', async (lng, lat, calls) => {
    let called = 0;
    const got = await guardedReverseGeocode(lng, lat, async () => {
      called++;
      return 'address';
    });
    expect(isGeocodable(lng, lat)).toBe(calls);
    expect(called).toBe(calls ? 1 : 0);
    expect(got).toBe(calls ? 'address' : '');
  });
});
