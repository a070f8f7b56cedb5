import Supercluster, { type ClusterProperties, type PointFeature } from 'supercluster';
import { DEPOT, type MapStation } from '../../api/station';
import { FENCE_CIRCLE, parsePoint, parsePoints } from '../../lib/fence';
import { toMapLatLng, type MapLatLng, type TileSource } from '../../lib/mapCoords';

/** Spec §9: cluster grid size 60 (pixels), as for vehicles. */
export const STATION_CLUSTER_RADIUS = 60;
/** Above this zoom every station is drawn on its own. */
export const STATION_CLUSTER_MAX_ZOOM = 13;
/** Fences are drawn from this zoom on (a 150 m circle is a few pixels below it). */
export const FENCE_MIN_ZOOM = 12;

/** The icon of a station type: the depot (yk) has its own, every other type shares one (spec §3). */
export const stationIcon = (type: string): 'depot' | 'station' => (type === DEPOT ? 'depot' : 'station');

export type StationShape = { kind: 'polygon'; points: MapLatLng[] } | { kind: 'circle'; center: MapLatLng; radius: number };

/** A station's fence in the map's datum, or null when it is not drawable. */
export function fenceShape(s: MapStation, source: TileSource): StationShape | null {
  if (s.fenceType === FENCE_CIRCLE) {
    const c = parsePoint(s.fenceCenter);
    const ll = c && toMapLatLng(c[0], c[1], source);
    return ll && s.raduis > 0 ? { kind: 'circle', center: ll, radius: s.raduis } : null;
  }
  const ps = parsePoints(s.fencePoints);
  if (!ps || ps.length < 3) return null;
  const out: MapLatLng[] = [];
  for (const [lng, lat] of ps) {
    const ll = toMapLatLng(lng, lat, source);
    if (ll) out.push(ll);
  }
  return out.length >= 3 ? { kind: 'polygon', points: out } : null;
}

interface Props {
  i: number;
}
export type StationIndex = Supercluster<Props, Record<string, never>>;

/** The stations' markers (fence centres) in the map's datum, clustered with a 60 px grid. */
export function buildStationIndex(stations: readonly MapStation[], source: TileSource): StationIndex {
  const idx = new Supercluster<Props, Record<string, never>>({ radius: STATION_CLUSTER_RADIUS, extent: 256, maxZoom: STATION_CLUSTER_MAX_ZOOM });
  const feats: PointFeature<Props>[] = [];
  stations.forEach((s, i) => {
    const ll = toMapLatLng(s.lng, s.lat, source);
    if (ll) feats.push({ type: 'Feature', properties: { i }, geometry: { type: 'Point', coordinates: [ll[1], ll[0]] } });
  });
  idx.load(feats);
  return idx;
}

export type StationItem =
  | { kind: 'station'; station: MapStation; at: MapLatLng }
  | { kind: 'cluster'; id: number; count: number; at: MapLatLng; expansionZoom: number };

/** What to draw in bounds [west, south, east, north] (map datum) at zoom. */
export function visibleStations(idx: StationIndex, stations: readonly MapStation[], bbox: [number, number, number, number], zoom: number): StationItem[] {
  const z = Math.round(zoom);
  return idx.getClusters(bbox, z).map((f): StationItem => {
    const [lng, lat] = f.geometry.coordinates;
    const p = f.properties as Props & Partial<ClusterProperties>;
    if (p.cluster) {
      const id = p.cluster_id!;
      return { kind: 'cluster', id, count: p.point_count!, at: [lat, lng], expansionZoom: Math.min(idx.getClusterExpansionZoom(id), 18) };
    }
    return { kind: 'station', station: stations[p.i], at: [lat, lng] };
  });
}
