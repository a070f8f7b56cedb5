import { describe, expect, it } from 'vitest';
import { boundsOf, fromMapLatLng, tileSourceOf, toMapLatLng } from './mapCoords';

describe('tileSourceOf', () => {
  it.each([
    ['gaode', 'gaode'],
    ['osm', 'osm'],
    ['none', 'none'],
    [undefined, 'none'],
    [null, 'none'],
    ['', 'none'],
    ['google', 'none'],
    [1, 'none'],
  ])('%s → %s', (v, want) => {
    expect(tileSourceOf(v)).toBe(want);
  });
});

describe('toMapLatLng', () => {
  it('keeps WGS-84 for OpenStreetMap and no tiles, as [lat, lng]', () => {
    expect(toMapLatLng(121.473701, 31.230416, 'osm')).toEqual([31.230416, 121.473701]);
    expect(toMapLatLng('116.4', '39.9', 'none')).toEqual([39.9, 116.4]);
  });

  it('shifts points in China to GCJ-02 for Gaode (a few hundred metres south-east in Shanghai)', () => {
    const p = toMapLatLng(121.473701, 31.230416, 'gaode');
    expect(p).not.toBeNull();
    const [lat, lng] = p!;
    // Gaode's offset in Shanghai is about +0.0045° lng, -0.002° lat.
    expect(lng - 121.473701).toBeGreaterThan(0.003);
    expect(lng - 121.473701).toBeLessThan(0.006);
    expect(lat - 31.230416).toBeLessThan(-0.001);
    expect(lat - 31.230416).toBeGreaterThan(-0.003);
  });

  it('leaves points outside China unshifted for Gaode', () => {
    expect(toMapLatLng(2.3522, 48.8566, 'gaode')).toEqual([48.8566, 2.3522]);
  });

  it.each([
    ['', ''],
    ['', 31.2],
    [121.4, ''],
    [0, 0],
    ['0', '31.2'],
    ['abc', 31.2],
    [null, undefined],
    [181, 31.2],
    [121.4, 91],
  ])('no point for (%s, %s)', (lng, lat) => {
    expect(toMapLatLng(lng, lat, 'osm')).toBeNull();
    expect(toMapLatLng(lng, lat, 'gaode')).toBeNull();
  });

  it('round-trips through fromMapLatLng within a metre', () => {
    for (const source of ['gaode', 'osm', 'none'] as const) {
      const [lng, lat] = fromMapLatLng(toMapLatLng(114.514, 38.042, source)!, source);
      expect(Math.abs(lng - 114.514)).toBeLessThan(1e-5);
      expect(Math.abs(lat - 38.042)).toBeLessThan(1e-5);
    }
  });
});

describe('boundsOf', () => {
  it('is null without points', () => {
    expect(boundsOf([])).toBeNull();
  });
  it('spans all points', () => {
    expect(
      boundsOf([
        [31, 121],
        [39.9, 116.4],
        [23.1, 113.3],
      ]),
    ).toEqual([
      [23.1, 113.3],
      [39.9, 121],
    ]);
  });
});
