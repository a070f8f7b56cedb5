import Supercluster from 'supercluster';
import type { MapCar } from '../../api/monitor';
import { toMapLatLng, type TileSource } from '../../lib/mapCoords';

/** Spec §9: cluster grid size 60 (pixels). */
export const CLUSTER_RADIUS = 60;
/** Above this zoom every car is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 15;

/** A car placed on the map: position already in the tile source's datum. */
export interface VehiclePoint {
  id: number;
  plate: string;
  lat: number;
  lng: number;
  direction: number;
  code: number;
  abnormal: boolean;
}

interface PointProps {
  /** index into the points array */
  i: number;
  abnormal: number;
}
interface ClusterProps {
  abnormal: number;
}

export type VehicleIndex = Supercluster<PointProps, ClusterProps>;

const cache: Record<TileSource, WeakMap<MapCar, VehiclePoint | null>> = {
  gaode: new WeakMap(),
  osm: new WeakMap(),
  offline: new WeakMap(),
  none: new WeakMap(),
};

/**
 * The cars that can be drawn (those with a fix), converted for the tile source. A car object that did
 * not change since the last call (the store keeps unchanged cars as they are) is not converted again.
 */
export function toVehiclePoints(cars: Iterable<MapCar>, source: TileSource): VehiclePoint[] {
  const memo = cache[source];
  const out: VehiclePoint[] = [];
  for (const car of cars) {
    let p = memo.get(car);
    if (p === undefined) {
      const ll = toMapLatLng(car.lng, car.lat, source);
      p = ll
        ? {
            id: car.carId,
            plate: car.plate,
            lat: ll[0],
            lng: ll[1],
            direction: Number(car.direction) || 0,
            code: car.code,
            abnormal: !!car.abnormal,
          }
        : null;
      memo.set(car, p);
    }
    if (p) out.push(p);
  }
  return out;
}

/** A supercluster index of the points (radius 60 px for Leaflet's 256-px tiles). */
export function buildIndex(points: readonly VehiclePoint[]): VehicleIndex {
  const index = new Supercluster<PointProps, ClusterProps>({
    radius: CLUSTER_RADIUS,
    extent: 256,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (p) => ({ abnormal: p.abnormal }),
    reduce: (acc, p) => {
      acc.abnormal += p.abnormal;
    },
  });
  index.load(
    points.map((p, i) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [p.lng, p.lat] },
      properties: { i, abnormal: p.abnormal ? 1 : 0 },
    })),
  );
  return index;
}

export type Visible =
  | { kind: 'car'; point: VehiclePoint }
  | { kind: 'cluster'; id: number; count: number; abnormal: number; lat: number; lng: number };

/** What to draw in the bounding box [west, south, east, north] at a zoom. */
export function visibleItems(index: VehicleIndex, points: readonly VehiclePoint[], bbox: [number, number, number, number], zoom: number): Visible[] {
  const [w, s, e, n] = bbox;
  const box: [number, number, number, number] = e - w >= 360 ? [-180, s, 180, n] : [w, Math.max(-85, s), e, Math.min(85, n)];
  return index.getClusters(box, Math.max(0, Math.floor(zoom))).map((f) => {
    const props = f.properties as Partial<ClusterProps & PointProps & { cluster: boolean; cluster_id: number; point_count: number }>;
    const [lng, lat] = f.geometry.coordinates;
    if (props.cluster) return { kind: 'cluster', id: props.cluster_id!, count: props.point_count!, abnormal: props.abnormal ?? 0, lat, lng };
    return { kind: 'car', point: points[props.i!] };
  });
}

/** Bubble radius (px) of a cluster of `count` cars. */
export function clusterRadius(count: number): number {
  return Math.round(14 + Math.min(12, 4 * Math.log10(Math.max(1, count))));
}

export interface Hit {
  x: number;
  y: number;
  r: number;
  item: Visible;
}

/** The topmost drawn item under (x, y): items drawn later lie on top. */
export function hitTest(drawn: readonly Hit[], x: number, y: number): Hit | null {
  for (let i = drawn.length - 1; i >= 0; i--) {
    const h = drawn[i];
    const dx = h.x - x;
    const dy = h.y - y;
    if (dx * dx + dy * dy <= h.r * h.r) return h;
  }
  return null;
}
