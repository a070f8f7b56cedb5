import gcoord from 'gcoord';
import { isValidCoords, type CoordValue } from './coords';

/**
 * Map tile sources (server setting `mapTiles` of GET /authority-app/platformInfo):
 * - `gaode`: Gaode (AMap) tiles, drawn in GCJ-02 — server points (WGS-84) are shifted before drawing;
 * - `osm`: OpenStreetMap tiles, WGS-84 as is;
 * - `offline`: the MBTiles file the server serves at /tiles/{z}/{x}/{y} (system settings), WGS-84 as is;
 * - `none`: no tiles (offline installations), WGS-84 as is on a neutral background.
 */
export type TileSource = 'gaode' | 'osm' | 'offline' | 'none';

export const TILE_SOURCES: readonly TileSource[] = ['gaode', 'osm', 'offline', 'none'];

/** The server's `mapTiles` value; anything missing or unknown means no tiles. */
export function tileSourceOf(value: unknown): TileSource {
  return typeof value === 'string' && (TILE_SOURCES as readonly string[]).includes(value) ? (value as TileSource) : 'none';
}

/** A point on the map as Leaflet wants it: [lat, lng] in the tile source's datum. */
export type MapLatLng = [number, number];

/**
 * A server point (WGS-84 degrees; numbers, numeric strings or "" without a fix) converted for the
 * active tile source, or null when the point is missing (spec §5 rule) or out of range.
 */
export function toMapLatLng(lng: CoordValue, lat: CoordValue, source: TileSource): MapLatLng | null {
  if (!isValidCoords(lng, lat)) return null;
  const x = Number(lng);
  const y = Number(lat);
  if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90) return null;
  if (source !== 'gaode') return [y, x];
  const [gx, gy] = gcoord.transform([x, y], gcoord.WGS84, gcoord.GCJ02) as [number, number];
  return [gy, gx];
}

/** The inverse: a map point (e.g. a click) back to WGS-84 [lng, lat] for the server. */
export function fromMapLatLng([lat, lng]: MapLatLng, source: TileSource): [number, number] {
  if (source !== 'gaode') return [lng, lat];
  return gcoord.transform([lng, lat], gcoord.GCJ02, gcoord.WGS84) as [number, number];
}

/** South-west and north-east corners of the points' extent, or null when there are none. */
export function boundsOf(points: readonly MapLatLng[]): [MapLatLng, MapLatLng] | null {
  if (points.length === 0) return null;
  let s = 90;
  let w = 180;
  let n = -90;
  let e = -180;
  for (const [lat, lng] of points) {
    if (lat < s) s = lat;
    if (lat > n) n = lat;
    if (lng < w) w = lng;
    if (lng > e) e = lng;
  }
  return [
    [s, w],
    [n, e],
  ];
}
