/**
 * Station fences (spec §3): polygon points "lng,lat;lng,lat;…", circle centre "lng,lat" and radius in
 * metres (`raduis`). Pure logic of the fence editor and the map's station layer; coordinates WGS-84.
 */

export const FENCE_POLYGON = 1;
export const FENCE_CIRCLE = 2;
export type FenceType = typeof FENCE_POLYGON | typeof FENCE_CIRCLE;

/** Same bounds as the server (internal/station). */
export const MIN_RADIUS = 10;
export const MAX_RADIUS = 50_000;
export const MAX_VERTICES = 500;

/** [lng, lat] WGS-84. */
export type LngLat = [number, number];

const EARTH_M = 6371008.8;

export function distanceM(a: LngLat, b: LngLat): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLng = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

function validPoint([lng, lat]: LngLat): boolean {
  return Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lng) <= 180 && Math.abs(lat) <= 90 && !(lng === 0 && lat === 0);
}

/** "lng,lat" → point, or null when malformed or out of range. */
export function parsePoint(s: string | null | undefined): LngLat | null {
  if (!s) return null;
  const parts = s.split(',');
  if (parts.length !== 2 || parts.some((p) => p.trim() === '')) return null;
  const p: LngLat = [Number(parts[0]), Number(parts[1])];
  return validPoint(p) ? p : null;
}

/** "lng,lat;lng,lat" → points; null when any part is bad. Empty parts (a trailing ';') are skipped. */
export function parsePoints(s: string | null | undefined): LngLat[] | null {
  const out: LngLat[] = [];
  for (const part of (s ?? '').split(';')) {
    if (part.trim() === '') continue;
    const p = parsePoint(part);
    if (!p) return null;
    out.push(p);
  }
  return out;
}

export const formatPoint = ([lng, lat]: LngLat): string => `${lng.toFixed(6)},${lat.toFixed(6)}`;
export const formatPoints = (ps: readonly LngLat[]): string => ps.map(formatPoint).join(';');

/** The editor's state: a polygon's vertices or a circle; `history` holds earlier states for undo. */
export interface FenceDraft {
  type: FenceType;
  points: LngLat[];
  center: LngLat | null;
  radius: number;
  history: Omit<FenceDraft, 'history'>[];
}

export const DEFAULT_RADIUS = 200;

export function emptyDraft(type: FenceType = FENCE_POLYGON): FenceDraft {
  return { type, points: [], center: null, radius: DEFAULT_RADIUS, history: [] };
}

/** A draft from a station's stored fence. */
export function draftOf(s: { fenceType?: number; fencePoints?: string; fenceCenter?: string; raduis?: number } | null | undefined): FenceDraft {
  if (!s) return emptyDraft();
  if (s.fenceType === FENCE_CIRCLE) {
    return { type: FENCE_CIRCLE, points: [], center: parsePoint(s.fenceCenter), radius: s.raduis || DEFAULT_RADIUS, history: [] };
  }
  return { type: FENCE_POLYGON, points: parsePoints(s.fencePoints) ?? [], center: null, radius: DEFAULT_RADIUS, history: [] };
}

export type FenceAction =
  | { kind: 'type'; type: FenceType }
  | { kind: 'click'; at: LngLat }
  | { kind: 'move'; index: number; at: LngLat }
  | { kind: 'radius'; radius: number }
  | { kind: 'dragRadius'; at: LngLat }
  | { kind: 'undo' }
  | { kind: 'clear' };

const snapshot = (d: FenceDraft): Omit<FenceDraft, 'history'> => ({ type: d.type, points: d.points, center: d.center, radius: d.radius });
const push = (d: FenceDraft, next: Omit<FenceDraft, 'history'>): FenceDraft => ({ ...next, history: [...d.history.slice(-49), snapshot(d)] });

/**
 * The editor's reducer: a click adds a polygon vertex or places the circle's centre; vertices can be
 * dragged; the radius is typed or dragged (the distance from the centre to the handle); undo and clear.
 */
export function fenceReducer(d: FenceDraft, a: FenceAction): FenceDraft {
  switch (a.kind) {
    case 'type':
      return a.type === d.type ? d : push(d, { ...snapshot(d), type: a.type });
    case 'click':
      if (d.type === FENCE_POLYGON) return d.points.length >= MAX_VERTICES ? d : push(d, { ...snapshot(d), points: [...d.points, a.at] });
      return push(d, { ...snapshot(d), center: a.at });
    case 'move': {
      if (a.index < 0 || a.index >= d.points.length) return d;
      const points = d.points.slice();
      points[a.index] = a.at;
      return push(d, { ...snapshot(d), points });
    }
    case 'radius':
      return Number.isFinite(a.radius) ? push(d, { ...snapshot(d), radius: Math.round(a.radius) }) : d;
    case 'dragRadius':
      if (!d.center) return d;
      return push(d, { ...snapshot(d), radius: Math.max(MIN_RADIUS, Math.min(MAX_RADIUS, Math.round(distanceM(d.center, a.at)))) });
    case 'undo': {
      const prev = d.history[d.history.length - 1];
      return prev ? { ...prev, history: d.history.slice(0, -1) } : d;
    }
    case 'clear':
      if (d.type === FENCE_POLYGON ? d.points.length === 0 : d.center == null) return d;
      return push(d, { ...snapshot(d), points: d.type === FENCE_POLYGON ? [] : d.points, center: d.type === FENCE_CIRCLE ? null : d.center });
  }
}

type Micro = [number, number];

/** Sign of (b-a)×(c-a) in micro-degrees (exact for fence-sized spans; the server judges in int64). */
function orient(a: Micro, b: Micro, c: Micro): number {
  return Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}

const onSegment = (a: Micro, b: Micro, c: Micro) =>
  Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);

function segmentsMeet(a: Micro, b: Micro, c: Micro, d: Micro): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 === 0 && onSegment(a, b, c)) || (o2 === 0 && onSegment(a, b, d)) || (o3 === 0 && onSegment(c, d, a)) || (o4 === 0 && onSegment(c, d, b));
}

/**
 * Whether two edges of the polygon (implicitly closed) cross, touch or overlap other than where
 * consecutive edges join — the server's SelfIntersection (internal/station/geometry.go), at the stored
 * precision of 6 decimals, so the form warns before the server refuses.
 */
export function selfIntersects(points: readonly LngLat[]): boolean {
  const q: Micro[] = points.map(([lng, lat]) => [Math.round(lng * 1e6), Math.round(lat * 1e6)]);
  const n = q.length;
  const es: [Micro, Micro][] = [];
  for (let i = 0; i < n; i++) {
    const a = q[i];
    const b = q[(i + 1) % n];
    if (a[0] !== b[0] || a[1] !== b[1]) es.push([a, b]);
  }
  const m = es.length;
  for (let k = 0; k < m; k++) {
    const [a, b] = es[k];
    const c = es[(k + 1) % m][1];
    // consecutive edges overlap only when the second turns straight back along the first
    if (m >= 2 && orient(a, b, c) === 0 && (a[0] - b[0]) * (c[0] - b[0]) + (a[1] - b[1]) * (c[1] - b[1]) > 0) return true;
    for (let l = k + 2; l < m; l++) {
      if (k === 0 && l === m - 1) continue;
      if (segmentsMeet(a, b, es[l][0], es[l][1])) return true;
    }
  }
  return false;
}

/** What is wrong with a draft (an i18n key under station.), or null when it can be saved. */
export function fenceProblem(d: FenceDraft): string | null {
  if (d.type === FENCE_POLYGON) {
    const distinct = new Set(d.points.map(formatPoint));
    if (distinct.size < 3) return 'station.fenceNeedPoints';
    if (d.points.length > MAX_VERTICES) return 'station.fenceTooMany';
    if (selfIntersects(d.points)) return 'station.fenceSelfIntersect';
    return null;
  }
  if (!d.center) return 'station.fenceNeedCenter';
  if (!(d.radius >= MIN_RADIUS && d.radius <= MAX_RADIUS)) return 'station.fenceRadiusRange';
  return null;
}

/** The fence fields of the station body. */
export function fenceBody(d: FenceDraft): { fenceType: FenceType; fencePoints: string; fenceCenter: string; raduis: number } {
  if (d.type === FENCE_POLYGON) return { fenceType: FENCE_POLYGON, fencePoints: formatPoints(d.points), fenceCenter: '', raduis: 0 };
  return { fenceType: FENCE_CIRCLE, fencePoints: '', fenceCenter: d.center ? formatPoint(d.center) : '', raduis: d.radius };
}

/** Points to fit the map to: the vertices, or the circle's extent (north, south, east, west of the centre). */
export function draftExtent(d: FenceDraft): LngLat[] {
  if (d.type === FENCE_POLYGON) return d.points;
  if (!d.center) return [];
  const [lng, lat] = d.center;
  const dLat = (d.radius / EARTH_M) * (180 / Math.PI);
  const dLng = dLat / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  return [
    [lng, lat + dLat],
    [lng, lat - dLat],
    [lng + dLng, lat],
    [lng - dLng, lat],
  ];
}

/** A point east of the centre at the radius: where the radius handle sits. */
export function radiusHandle(d: FenceDraft): LngLat | null {
  if (!d.center) return null;
  const [lng, lat] = d.center;
  const dLng = (d.radius / EARTH_M) * (180 / Math.PI) / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  return [lng + dLng, lat];
}
