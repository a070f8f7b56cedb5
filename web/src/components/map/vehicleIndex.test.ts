import { describe, expect, it } from 'vitest';
import type { MapCar } from '../../api/monitor';
import { buildIndex, clusterRadius, hitTest, toVehiclePoints, visibleItems, type Hit } from './vehicleIndex';

const car = (carId: number, lng: number | '', lat: number | '', extra: Partial<MapCar> = {}): MapCar => ({
  carId,
  plate: `P${carId}`,
  lng,
  lat,
  speed: 10,
  direction: 45,
  code: 4,
  abnormal: false,
  time: null,
  ...extra,
});

describe('toVehiclePoints', () => {
  it('drops cars without a fix and converts for Gaode', () => {
    const cars = [car(1, 121.47, 31.23), car(2, '', ''), car(3, 0, 0)];
    const osm = toVehiclePoints(cars, 'osm');
    expect(osm.map((p) => p.id)).toEqual([1]);
    expect(osm[0]).toMatchObject({ lat: 31.23, lng: 121.47, direction: 45, plate: 'P1' });
    const gaode = toVehiclePoints(cars, 'gaode');
    expect(gaode[0].lng).toBeGreaterThan(121.47);
  });

  it('reuses the conversion of an unchanged car object', () => {
    const c = car(1, 121.47, 31.23);
    const a = toVehiclePoints([c], 'gaode')[0];
    expect(toVehiclePoints([c], 'gaode')[0]).toBe(a);
    expect(toVehiclePoints([{ ...c, lng: 121.48 }], 'gaode')[0]).not.toBe(a);
  });
});

describe('buildIndex / visibleItems', () => {
  // 200 cars within ~1 km in Shanghai, 1 car in Beijing
  const cars = [
    ...Array.from({ length: 200 }, (_, i) => car(i + 1, 121.47 + (i % 20) * 0.0005, 31.23 + Math.floor(i / 20) * 0.0005, { abnormal: i < 3 })),
    car(1000, 116.4, 39.9),
  ];
  const points = toVehiclePoints(cars, 'osm');
  const index = buildIndex(points);
  const china: [number, number, number, number] = [73, 18, 135, 54];

  it('clusters nearby cars when zoomed out, counting abnormal ones', () => {
    const items = visibleItems(index, points, china, 5);
    const clusters = items.filter((x) => x.kind === 'cluster');
    expect(clusters).toHaveLength(1);
    expect(clusters[0]).toMatchObject({ count: 200, abnormal: 3 });
    expect(items.filter((x) => x.kind === 'car').map((x) => x.kind === 'car' && x.point.id)).toEqual([1000]);
  });

  it('shows every car on its own above the cluster zoom', () => {
    const items = visibleItems(index, points, [121.4, 31.2, 121.6, 31.3], 17);
    expect(items).toHaveLength(200);
    expect(items.every((x) => x.kind === 'car')).toBe(true);
  });

  it('only what is inside the box', () => {
    expect(visibleItems(index, points, [116, 39.5, 117, 40.5], 10)).toHaveLength(1);
  });

  it('handles 20,000 cars', () => {
    const many = Array.from({ length: 20000 }, (_, i) => car(i + 1, 100 + (i % 200) * 0.1, 25 + Math.floor(i / 200) * 0.1));
    const pts = toVehiclePoints(many, 'osm');
    const idx = buildIndex(pts);
    const items = visibleItems(idx, pts, china, 4);
    const total = items.reduce((n, x) => n + (x.kind === 'cluster' ? x.count : 1), 0);
    expect(total).toBe(20000);
    expect(items.length).toBeLessThan(500);
  });
});

describe('hitTest', () => {
  const item = { kind: 'cluster', id: 1, count: 2, abnormal: 0, lat: 0, lng: 0 } as const;
  const drawn: Hit[] = [
    { x: 10, y: 10, r: 10, item },
    { x: 15, y: 10, r: 8, item: { ...item, id: 2 } },
  ];
  it('finds the topmost item within its radius', () => {
    expect(hitTest(drawn, 14, 10)?.item).toMatchObject({ id: 2 });
    expect(hitTest(drawn, 3, 10)?.item).toMatchObject({ id: 1 });
    expect(hitTest(drawn, 40, 40)).toBeNull();
  });
  it('cluster bubbles grow with the count', () => {
    expect(clusterRadius(2)).toBeLessThan(clusterRadius(200));
    expect(clusterRadius(1e9)).toBe(26);
  });
});
