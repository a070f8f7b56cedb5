import type { Tiles } from '../../../api/overview';

/** What a click on a tile opens: the trips behind it (optionally the over-allowance ones), or a page of events. */
export type Drill = { kind: 'trips'; over?: boolean } | { kind: 'page'; path: string } | null;

export interface TileDef {
  key: string;
  value: (t: Tiles) => number;
  /** digits after the point */
  digits: number;
  unit?: string;
  /** more is worse (loss, over-allowance, openings, tampering): a rise is shown red */
  badUp?: boolean;
  drill: Drill;
}

/** The overview's tiles (DOMAIN.md §5 figures, then the lock and seal counts read from the events). */
export const TILES: TileDef[] = [
  { key: 'trips', value: (t) => t.trips, digits: 0, drill: { kind: 'trips' } },
  { key: 'shippedV20', value: (t) => t.shippedV20, digits: 0, unit: 'L', drill: { kind: 'trips' } },
  { key: 'shippedT', value: (t) => t.shippedT, digits: 1, unit: 't', drill: { kind: 'trips' } },
  { key: 'receivedV20', value: (t) => t.receivedV20, digits: 0, unit: 'L', drill: { kind: 'trips' } },
  { key: 'lossL', value: (t) => t.lossL, digits: 1, unit: 'L', badUp: true, drill: { kind: 'trips' } },
  { key: 'lossRate', value: (t) => t.lossRatePct, digits: 4, unit: '%', badUp: true, drill: { kind: 'trips' } },
  { key: 'tonKm', value: (t) => t.tonKm, digits: 0, drill: { kind: 'trips' } },
  { key: 'km', value: (t) => t.km, digits: 0, unit: 'km', drill: { kind: 'trips' } },
  { key: 'avgOutToArrival', value: (t) => t.avgOutToArrivalMin, digits: 1, unit: 'min', drill: { kind: 'trips' } },
  { key: 'overAllowance', value: (t) => t.overAllowance, digits: 0, badUp: true, drill: { kind: 'trips', over: true } },
  { key: 'openings', value: (t) => t.abnormalOpenings, digits: 0, badUp: true, drill: { kind: 'page', path: '/manager/bizDiffRecordVXE' } },
  { key: 'lockTampered', value: (t) => t.lockTampered, digits: 0, badUp: true, drill: { kind: 'page', path: '/manager/blueLockRecord' } },
  { key: 'sealIncidents', value: (t) => t.sealIncidents, digits: 0, badUp: true, drill: { kind: 'page', path: '/manager/leadSealRecord' } },
];

/**
 * The change of cur against prev in percent (1 decimal); null when there is nothing to compare with
 * (prev 0, or a value that does not exist: an average without timed trips is -1).
 */
export function change(cur: number, prev: number): number | null {
  if (prev <= 0 || cur < 0) return null;
  return Math.round(((cur - prev) / prev) * 1000) / 10;
}

/** The tone of a change: a rise of a 'bad' figure or a fall of a good one is a warning. */
export function tone(pct: number | null, badUp?: boolean): 'up-bad' | 'up-good' | 'down-bad' | 'down-good' | 'flat' {
  if (pct === null || pct === 0) return 'flat';
  if (pct > 0) return badUp ? 'up-bad' : 'up-good';
  return badUp ? 'down-good' : 'down-bad';
}

/** A figure for display: grouped thousands, fixed digits; '—' for a missing average (-1). */
export function fmt(v: number, digits: number, lang = 'zh-CN'): string {
  if (v < 0 && digits === 1 && v === -1) return '—';
  return v.toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
