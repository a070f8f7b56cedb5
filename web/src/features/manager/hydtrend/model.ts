import type { SeriesDTO } from '../../../api/trend';
import { formatServerTime } from '../../../lib/playback';

/**
 * Pure logic of the trend pages (hydtrend, hydtrend2): series to chart points (gaps kept as gaps),
 * overview + zoomed detail merging, the zoom → re-query decision, the ±2 h window of a link.
 */

export type Point = [number, number | null];

/** The k-th value column of a series as [t, v] points; a null (a gap) stays null so the line breaks. */
export function toPoints(s: SeriesDTO | undefined, k: number): Point[] {
  if (!s || !s.v[k]) return [];
  const col = s.v[k];
  const out: Point[] = new Array(s.t.length);
  for (let i = 0; i < s.t.length; i++) {
    const v = col[i];
    out[i] = [s.t[i], v === null || v === undefined || !Number.isFinite(v) ? null : v];
  }
  return out;
}

/** A loaded answer: the period it covers and its bucket width (0 = raw readings). */
export interface Loaded {
  start: number;
  end: number;
  bucketMs: number;
}

/**
 * Overview points outside the detail's period, the detail's points inside it: a zoomed-in query
 * replaces only its window. The seams are broken (a null point) so no line joins two resolutions.
 */
export function mergeDetail(overview: Point[], detail: Point[] | null, win: Loaded | null): Point[] {
  if (!detail || !win) return overview;
  const before = overview.filter((p) => p[0] < win.start);
  const after = overview.filter((p) => p[0] > win.end);
  const out: Point[] = [...before];
  if (before.length && detail.length) out.push([win.start, null]);
  out.push(...detail);
  if (after.length && detail.length) out.push([win.end, null]);
  out.push(...after);
  return out;
}

/** Points a query asks for per series. */
export const MAX_POINTS = 1500;
/** The server's shortest summary (five minutes): below it, it reads raw readings. */
export const RAW_BELOW_MS = 5 * 60_000;

/**
 * Whether a zoomed view deserves its own query: the loaded answer is downsampled, the view is inside
 * the period, and a query of just the view would have buckets at most half as wide (or raw
 * readings). A view already covered at that resolution by the detail answer needs none.
 */
export function needsRequery(view: { start: number; end: number }, overview: Loaded, detail: Loaded | null, maxPoints = MAX_POINTS): boolean {
  if (overview.bucketMs === 0) return false;
  const span = view.end - view.start;
  if (span <= 0) return false;
  const width = span / Math.max(1, Math.floor(maxPoints / 4));
  if (width > overview.bucketMs / 2) return false;
  if (detail && view.start >= detail.start && view.end <= detail.end && (detail.bucketMs === 0 || width > detail.bucketMs / 2)) return false;
  return true;
}

/** The ±2 h window around a linked moment (`?at=<ms>`), or null when the parameter is not a time. */
export function windowAround(at: string | null, halfMs = 2 * 3600_000): { start: number; end: number; at: number } | null {
  if (!at) return null;
  const ms = Number(at);
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return { start: ms - halfMs, end: ms + halfMs, at: ms };
}

/** Axis label of a time (Asia/Shanghai): the date when the span is long, else the time of day. */
export function axisLabel(ms: number, spanMs: number): string {
  const s = formatServerTime(ms);
  if (spanMs > 3 * 86400_000) return s.slice(5, 10) + '\n' + s.slice(11, 16);
  if (spanMs > 86400_000) return s.slice(5, 16).replace(' ', '\n');
  return s.slice(11, 19);
}

/** Whether any point of the series has a value. */
export function hasValues(points: Point[]): boolean {
  return points.some((p) => p[1] !== null);
}

/** Converts a picker's server time text to Unix ms (NaN when empty). */
export { parseServerTime } from '../../../lib/playback';
