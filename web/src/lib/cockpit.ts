import type { MenuNode } from '../api/types';
import { percentages, shareOf } from './percent';

/** The five vehicle counts of the cockpit (spec §1, §3: the count response is keyed by these codes). */
export const COUNT_CODES = ['8', '4', '5', '7', '3'] as const;
export type CountCode = (typeof COUNT_CODES)[number];
export type Counts = Partial<Record<CountCode, number>> & {
  /** carCount only: the server's clock (Unix ms) when it took the counts. */
  serverTime?: number;
};

/**
 * When the counts were taken: the server's serverTime, so the home page's "updated at" is the server's
 * clock (shown on the platform's zone), not the browser's; the time the browser received them only from
 * a server that does not send it. 0 when nothing was received.
 */
export function countsTime(counts: Counts | undefined, receivedAt: number): number {
  const t = counts?.serverTime;
  return typeof t === 'number' && Number.isFinite(t) && t > 0 ? t : receivedAt;
}

/** Spec §9: the cockpit's counts refresh every 30 s. */
export const COCKPIT_REFRESH_MS = 30000;

/** Menu code that gates opening real-time monitoring from a count card (spec §2, §6). */
export const MONITORING_CODE = '04-01';

/** Pages on which a count card keeps the user where they are (spec §2), as paths. */
const STAY_ON = ['/manager/trackReplaying', '/manager/videoLive', '/manager/videoReplaying'];

/** Whether the menu tree holds a node with this code. */
export function menuHasCode(menu: readonly MenuNode[] | null | undefined, code: string): boolean {
  if (!menu) return false;
  return menu.some((n) => n.code === code || menuHasCode(n.children, code));
}

/**
 * Where clicking a count card goes: null when the user lacks 04-01 (nothing happens); the current
 * page with the new code and title when already on track replay or video; otherwise monitoring2.
 */
export function countCardTarget(currentPath: string, code: CountCode, title: string, mayMonitor: boolean): string | null {
  if (!mayMonitor) return null;
  const query = `?code=${encodeURIComponent(code)}&title=${encodeURIComponent(title)}`;
  const here = STAY_ON.find((p) => currentPath === p || currentPath.startsWith(`${p}?`));
  return `${here ?? '/manager/monitoring2'}${query}`;
}

/**
 * Share of the total, in whole percent (0 when there is no total), by ./percent's rule: in transit,
 * resting and offline (one car is in exactly one) add up to 100 by largest remainder, and a count that
 * is not 0 never reads 0 % (异常 1 of 200 reads 1 %). Abnormal cars cut across them: their share is
 * taken on its own by the same rule.
 */
export function share(counts: Counts, code: CountCode): number {
  const total = counts['8'] ?? 0;
  if (!total) return 0;
  if (code === '8') return 100;
  if (code === '3') return shareOf(counts['3'] ?? 0, total);
  const parts = (['4', '5', '7'] as const).map((c) => counts[c] ?? 0);
  const rest = Math.max(0, total - parts.reduce((a, b) => a + b, 0)); // not yet counted in any state
  return percentages([...parts, rest])[['4', '5', '7'].indexOf(code)];
}

/** The cockpit's colour of each count (the map's status palette uses the same for 4, 5, 7 and 3). */
export const COUNT_COLORS: Record<CountCode, string> = {
  '8': '#1677ff',
  '4': '#16a34a',
  '5': '#d97706',
  '7': '#8c8c8c',
  '3': '#dc2626',
};

/**
 * What a header menu tile counts: vehicles for the modules about vehicles (home: all in scope,
 * monitoring: online ones, alarms: abnormal ones) once the counts are known; otherwise its pages.
 */
export function tileCount(module: string, counts: Counts | undefined, pages: number): { n: number; kind: 'vehicles' | 'online' | 'abnormal' | 'pages' } {
  if (counts) {
    if (module === 'home' && counts['8'] !== undefined) return { n: counts['8'], kind: 'vehicles' };
    if (module === 'manager' && counts['4'] !== undefined && counts['5'] !== undefined) return { n: counts['4'] + counts['5'], kind: 'online' };
    if (module === 'police' && counts['3'] !== undefined) return { n: counts['3'], kind: 'abnormal' };
  }
  return { n: pages, kind: 'pages' };
}

/** Why a car counts as abnormal (code 3), as i18n keys: terminal alarm flags, a broken seal, else a device fault. */
export function abnormalReasonKeys(car: { alarm: number; seal: number }): string[] {
  const keys: string[] = [];
  if (car.alarm) keys.push('home.reason.alarm');
  if (car.seal === 2) keys.push('home.reason.seal');
  if (!keys.length) keys.push('home.reason.fault');
  return keys;
}
