import { describe, expect, it } from 'vitest';
import type { MapStation } from '../../api/station';
import { buildStationIndex, fenceShape, FENCE_MIN_ZOOM, stationIcon, visibleStations } from './stationIndex';

const st = (id: number, lng: number, lat: number, extra: Partial<MapStation> = {}): MapStation => ({
  id,
  stationName: `s${id}`,
  stationType: 'jyz',
  fenceType: 2,
  fencePoints: '',
  fenceCenter: `${lng},${lat}`,
  raduis: 150,
  lng,
  lat,
  address: '',
  groupName: '',
  ...extra,
});

describe('station layer logic', () => {
  it('depot has its own icon', () => {
    expect(stationIcon('yk')).toBe('depot');
    expect(stationIcon('jyz')).toBe('station');
    expect(stationIcon('cng')).toBe('station');
  });

  it('fence shapes', () => {
    expect(fenceShape(st(1, 121, 31), 'none')).toEqual({ kind: 'circle', center: [31, 121], radius: 150 });
    const poly = st(2, 121, 31, { fenceType: 1, fencePoints: '121,31;121.1,31;121.1,31.1', fenceCenter: '' });
    expect(fenceShape(poly, 'osm')).toEqual({ kind: 'polygon', points: [[31, 121], [31, 121.1], [31.1, 121.1]] });
    expect(fenceShape({ ...poly, fencePoints: '121,31' }, 'none')).toBeNull();
    // Gaode tiles: shifted to GCJ-02 (a few hundred metres in China)
    const g = fenceShape(st(1, 121, 31), 'gaode');
    expect(g?.kind).toBe('circle');
    if (g?.kind === 'circle') expect(Math.abs(g.center[1] - 121)).toBeGreaterThan(0.002);
    expect(FENCE_MIN_ZOOM).toBeGreaterThan(10);
  });

  it('clusters near stations when zoomed out, splits them when zoomed in', () => {
    const list = [st(1, 121, 31), st(2, 121.001, 31.001), st(3, 116, 39)];
    const idx = buildStationIndex(list, 'none');
    const world: [number, number, number, number] = [-180, -85, 180, 85];
    const out = visibleStations(idx, list, world, 5);
    expect(out.filter((x) => x.kind === 'cluster')).toHaveLength(1);
    expect(out.find((x) => x.kind === 'cluster')).toMatchObject({ count: 2 });
    const near = visibleStations(idx, list, world, 17);
    expect(near.map((x) => (x.kind === 'station' ? x.station.id : 0)).sort()).toEqual([1, 2, 3]);
  });
});
