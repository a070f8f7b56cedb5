/**
 * Compass bearing (degrees, 0 = due north, clockwise) to a translatable direction.
 * Exact multiples of 45 are the eight directions; the open bands between them read
 * "<main> 偏 <towards>" (e.g. 1–44 → 北偏东 / "East of north"). Values ≥ 360, negative or not a
 * number give the raw value (key bearing.raw).
 */
export interface BearingText {
  key: string;
  args?: Record<string, string | number>;
}

const EXACT = ['north', 'northEast', 'east', 'southEast', 'south', 'southWest', 'west', 'northWest'];
const BANDS = ['northByEast', 'eastByNorth', 'eastBySouth', 'southByEast', 'southByWest', 'westBySouth', 'westByNorth', 'northByWest'];

export function bearingText(value: number | string | null | undefined): BearingText {
  const raw = value === null || value === undefined ? '' : value;
  const n = typeof raw === 'number' ? raw : raw === '' ? NaN : Number(raw);
  if (!Number.isFinite(n) || n < 0 || n >= 360) return { key: 'bearing.raw', args: { value: String(raw) } };
  if (n % 45 === 0) return { key: `bearing.${EXACT[n / 45]}` };
  return { key: `bearing.${BANDS[Math.floor(n / 45)]}` };
}
