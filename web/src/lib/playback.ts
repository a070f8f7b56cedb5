/**
 * Track replay (trackReplaying): pure playback over a track's points. Times are Unix ms; the server
 * sends `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai.
 */

/** Parses a server time (Asia/Shanghai, `YYYY-MM-DD HH:mm:ss`) to Unix ms; NaN when unreadable. */
export function parseServerTime(s: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(s.trim());
  if (!m) return NaN;
  const [, y, mo, d, h, mi, se] = m.map(Number);
  return Date.UTC(y, mo - 1, d, h - 8, mi, se);
}

/** Formats Unix ms as a server time (Asia/Shanghai). */
export function formatServerTime(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export interface PlayPoint {
  t: number;
  lat: number;
  lng: number;
  speed: number;
  direction: number;
}

/** The point of index i of a track and the one after, for interpolation. */
export interface Track {
  points: readonly PlayPoint[];
  start: number;
  end: number;
}

export function makeTrack(points: readonly PlayPoint[]): Track {
  return { points, start: points.length ? points[0].t : 0, end: points.length ? points[points.length - 1].t : 0 };
}

/** Index of the last point at or before t (0 before the first point); binary search. */
export function indexAt(points: readonly PlayPoint[], t: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0 || t <= points[0].t) return 0;
  if (t >= points[hi].t) return hi;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid].t <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface Position {
  lat: number;
  lng: number;
  speed: number;
  direction: number;
  /** Index of the last point passed. */
  index: number;
}

/**
 * Where the vehicle is at time t: on the segment between the surrounding points, linearly; its speed
 * and heading are those of the last point passed (what the terminal reported).
 */
export function positionAt(track: Track, t: number): Position | null {
  const pts = track.points;
  if (!pts.length) return null;
  const i = indexAt(pts, t);
  const a = pts[i];
  const b = pts[i + 1];
  if (!b || t <= a.t || b.t === a.t) return { lat: a.lat, lng: a.lng, speed: a.speed, direction: a.direction, index: i };
  const f = Math.min(1, (t - a.t) / (b.t - a.t));
  return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f, speed: a.speed, direction: a.direction, index: i };
}

/** Playback speeds: simulated seconds per real second. */
export const SPEEDS = [10, 30, 60, 120, 300, 600, 1200] as const;
export const DEFAULT_SPEED = 60;

export interface Stop {
  start: number;
  end: number;
}

/**
 * The next playback time after `elapsedMs` of real time at `speed`, clamped to the track's end. With
 * skipStops, time inside a stop jumps to the stop's end (nothing moves there).
 */
export function advance(track: Track, t: number, elapsedMs: number, speed: number, stops: readonly Stop[] = [], skipStops = false): number {
  let next = Math.min(track.end, Math.max(track.start, t) + elapsedMs * speed);
  if (skipStops) {
    const s = stops.find((st) => next >= st.start && next < st.end);
    if (s) next = Math.min(track.end, s.end);
  }
  return next;
}

/** Share of the track played at t, 0–1 (for the seek slider). */
export function fractionAt(track: Track, t: number): number {
  const len = track.end - track.start;
  if (len <= 0) return 0;
  return Math.min(1, Math.max(0, (t - track.start) / len));
}

/** The time at a share of the track (seek slider → time). */
export function timeAtFraction(track: Track, f: number): number {
  return track.start + (track.end - track.start) * Math.min(1, Math.max(0, f));
}

/** Great-circle distance in km between two WGS-84 points (haversine). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = Math.PI / 180;
  const dLat = (b.lat - a.lat) * r;
  const dLng = (b.lng - a.lng) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface TrackSummary {
  km: number;
  durationMs: number;
  maxSpeed: number;
  movingMs: number;
}

/** Distance along the points, duration, top speed, and time spent moving (speed ≥ 1 km/h). */
export function summarize(points: readonly PlayPoint[]): TrackSummary {
  let km = 0;
  let maxSpeed = 0;
  let movingMs = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (p.speed > maxSpeed) maxSpeed = p.speed;
    if (i > 0) {
      km += distanceKm(points[i - 1], p);
      if (points[i - 1].speed >= 1) movingMs += p.t - points[i - 1].t;
    }
  }
  const durationMs = points.length ? points[points.length - 1].t - points[0].t : 0;
  return { km, durationMs, maxSpeed, movingMs };
}

/** `1 h 05 min`-style duration parts, for translation: [hours, minutes]. */
export function hoursMinutes(ms: number): [number, number] {
  const min = Math.round(ms / 60000);
  return [Math.floor(min / 60), min % 60];
}
