import type { TankRow, TankRowFilters } from '../../../api/tankMonitor';

/** The table is re-read this often while auto refresh is on (it is served from the live state). */
export const AUTO_REFRESH_MS = 10_000;

export const rowKey = (r: Pick<TankRow, 'carId' | 'no'>) => `${r.carId}/${r.no}`;

export function fillText(p: number | null): string {
  return p == null ? '—' : `${p.toFixed(1)}%`;
}

/** Form values → the page call's filters: empty values dropped, unchecked boxes not sent, plate trimmed. */
export function toRowFilters(v: Record<string, unknown>): TankRowFilters {
  const f: TankRowFilters = {};
  if (typeof v.groupId === 'number') f.groupId = v.groupId;
  if (typeof v.plate === 'string' && v.plate.trim()) f.plate = v.plate.trim();
  if (typeof v.product === 'number') f.product = v.product;
  if (typeof v.fillMin === 'number') f.fillMin = v.fillMin;
  if (typeof v.fillMax === 'number') f.fillMax = v.fillMax;
  if (v.openOnly === true) f.openOnly = true;
  if (v.onlineOnly === true) f.onlineOnly = true;
  return f;
}
