export type CoordValue = string | number | null | undefined;

/** Spec §5: a coordinate is missing when empty, zero, '0', '0.0' or not a number. */
export function isMissingCoord(v: CoordValue): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '' || s === '0' || s === '0.0') return true;
    const n = Number(s);
    return Number.isNaN(n) || n === 0;
  }
  return Number.isNaN(v) || v === 0;
}

/** Coordinates are valid only if neither is missing. */
export function isValidCoords(lng: CoordValue, lat: CoordValue): boolean {
  return !isMissingCoord(lng) && !isMissingCoord(lat);
}
