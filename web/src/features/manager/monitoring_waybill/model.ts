import type { MapCar } from '../../../api/monitor';
import type { ActiveState, WaybillCar } from './api';

/** Colour of each active state; markers and rows also write the state's name (never colour alone). */
export const STATE_COLOR: Record<ActiveState, string> = {
  DISPATCHED: '#64748b',
  LOADING: '#0891b2',
  LOADED: '#0e7490',
  SEALED: '#7c3aed',
  IN_TRANSIT: '#1677ff',
  ARRIVED: '#16a34a',
  UNSEALED: '#ca8a04',
  UNLOADING: '#ea580c',
};

export function stateColor(s: string): string {
  return STATE_COLOR[s as ActiveState] ?? '#64748b';
}

/**
 * The remaining time to an ETA as the list shows it: { key, args } for i18n ("arrived", "< 1 min",
 * "25 min", "1 h 05 min", "2 d 3 h"). null when there is no ETA.
 */
export function etaIn(etaAt: number | null, now: number): { key: string; args?: Record<string, number | string> } | null {
  if (etaAt == null) return null;
  const ms = etaAt - now;
  if (ms <= 0) return { key: 'monitoringWaybill.eta.now' };
  const min = Math.round(ms / 60_000);
  if (min < 1) return { key: 'monitoringWaybill.eta.lessThanMinute' };
  if (min < 60) return { key: 'monitoringWaybill.eta.minutes', args: { m: min } };
  const h = Math.floor(min / 60);
  if (h < 24) return { key: 'monitoringWaybill.eta.hours', args: { h, m: String(min % 60).padStart(2, '0') } };
  return { key: 'monitoringWaybill.eta.days', args: { d: Math.floor(h / 24), h: h % 24 } };
}

/** The clock time of an ETA in Asia/Shanghai: HH:mm today, MM-DD HH:mm another day. */
export function etaClock(etaAt: number | null, now: number): string {
  if (etaAt == null) return '';
  const f = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString();
  const a = f(etaAt);
  return a.slice(0, 10) === f(now).slice(0, 10) ? a.slice(11, 16) : `${a.slice(5, 10)} ${a.slice(11, 16)}`;
}

/** The cars with the newest live position (the live stream) over the one of the last list read. */
export function withLive(list: readonly WaybillCar[], live: ReadonlyMap<number, MapCar>): WaybillCar[] {
  return list.map((c) => {
    const l = live.get(c.carId);
    if (!l || l.lng === '' || l.lat === '') return c;
    return { ...c, lng: l.lng, lat: l.lat, speed: l.speed, direction: l.direction, code: l.code };
  });
}

/** Counts per state, for the filter. */
export function countByState(list: readonly WaybillCar[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of list) out[c.state] = (out[c.state] ?? 0) + 1;
  return out;
}
