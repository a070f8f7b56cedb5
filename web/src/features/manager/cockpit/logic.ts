import type { Band, BandCount, CockpitSummary, GroundTank, TruckState } from '../../../api/levelCockpit';

/** The fill bands in drawing order, and the truck tiles in theirs (D39). */
export const BANDS: Band[] = ['empty', 'low', 'mid', 'high', 'unknown'];
export const TRUCK_TILES: TruckState[] = ['loaded', 'empty', 'loading', 'unloading'];

/** Band colours: high contrast on the dark wall; the bands are also named in text everywhere. */
export const BAND_COLORS: Record<Band, string> = {
  empty: '#f87171',
  low: '#fbbf24',
  mid: '#38bdf8',
  high: '#34d399',
  unknown: '#94a3b8',
};

export const TRUCK_COLORS: Record<TruckState, string> = {
  loaded: '#34d399',
  empty: '#94a3b8',
  loading: '#38bdf8',
  unloading: '#fbbf24',
  unknown: '#64748b',
};

/** The fill band of a share in percent (the server's BandOf: <5, 5–50, 50–90, ≥90); unknown without one. */
export function bandOfPct(pct: number | null | undefined): Band {
  if (pct == null || !Number.isFinite(pct) || pct < 0) return 'unknown';
  if (pct < 5) return 'empty';
  if (pct < 50) return 'low';
  if (pct < 90) return 'mid';
  return 'high';
}

/** A ground tank's band: unknown until it has a reading and a capacity. */
export function tankBand(t: Pick<GroundTank, 'at' | 'capacity' | 'fillPct'>): Band {
  return t.at > 0 && t.capacity > 0 ? bandOfPct(t.fillPct) : 'unknown';
}

/** Counts of bands in drawing order (a band the server left out counts 0). */
export function bandSeries(bands: readonly BandCount[] | undefined): { band: Band; count: number }[] {
  return BANDS.map((band) => ({ band, count: bands?.find((b) => b.band === band)?.count ?? 0 }));
}

/**
 * A volume for a wall: litres below 100,000 (whole, grouped), cubic metres above (one decimal), so a
 * number never runs wider than its tile. Returns the number text and the unit key (cockpit.unit.*).
 */
export function formatVolume(litres: number, locale: string): { value: string; unit: 'litre' | 'm3' } {
  if (!Number.isFinite(litres)) return { value: '—', unit: 'litre' };
  if (Math.abs(litres) < 100_000) {
    return { value: Math.round(litres).toLocaleString(locale), unit: 'litre' };
  }
  return { value: (litres / 1000).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), unit: 'm3' };
}

/** Days of cover to one decimal (below 10) or whole; null when not known (−1). */
export function formatDays(days: number, locale: string): string | null {
  if (!Number.isFinite(days) || days < 0) return null;
  const digits = days < 10 ? 1 : 0;
  return days.toLocaleString(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Whole percent, clamped to 0–999 for a bar label. */
export function formatPct(p: number): string {
  if (!Number.isFinite(p)) return '—';
  return `${Math.round(Math.max(0, Math.min(999, p)))}`;
}

/** Share of a part in whole percent (0 without a total). */
export function pctOf(part: number, total: number): number {
  return total > 0 ? Math.round((part / total) * 100) : 0;
}

/** The floor: the summary is read again this often even when the live stream says nothing (D39). */
export const REFRESH_MS = 30_000;
/** Changes on the live stream are gathered this long before one summary read (debounce). */
export const LIVE_DEBOUNCE_MS = 3_000;
/** Without a successful read for this long, the data is shown as stale. */
export const STALE_MS = 75_000;

/** Whether the page's data is stale: nothing read yet is not stale (it is loading). */
export function isStale(lastOk: number, now: number, stale = STALE_MS): boolean {
  return lastOk > 0 && now - lastOk > stale;
}

/**
 * A trailing debounce with a ceiling: calls fn once `wait` ms after the last poke, but never later than
 * `maxWait` after the first poke of a burst (a stream of deltas every second must not postpone the read
 * for ever).
 */
export function debounce(fn: () => void, wait: number, maxWait: number, timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let first = 0;
  const fire = () => {
    timer = null;
    first = 0;
    fn();
  };
  return {
    poke(now: number = Date.now()) {
      if (!first) first = now;
      if (timer) timers.clearTimeout(timer);
      timer = timers.setTimeout(fire, Math.max(0, Math.min(wait, first + maxWait - now)));
    },
    cancel() {
      if (timer) timers.clearTimeout(timer);
      timer = null;
      first = 0;
    },
  };
}

/** The car ids of a tile, as monitoring2's `cars` query (empty when there are none). */
export function carsQuery(ids: readonly number[] | undefined): string {
  return ids && ids.length ? `&cars=${ids.join(',')}` : '';
}

/** Rows of a scrolling list: doubled when it overflows so the ticker loops without a jump. */
export function tickerRows<T>(rows: readonly T[], overflow: boolean): T[] {
  return overflow && rows.length > 1 ? [...rows, ...rows] : [...rows];
}

/** Total trucks shown on the tiles (unknown ones are not a tile but counted in the total). */
export function truckTotal(s: CockpitSummary | undefined): number {
  return s?.trucks.total ?? 0;
}
