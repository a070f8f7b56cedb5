import type { CoordValue } from './coords';

/** Spec §5: reverse geocoding returns '' without calling the server when lng or lat is missing or "0". */
export function isGeocodable(lng: CoordValue, lat: CoordValue): boolean {
  const bad = (v: CoordValue) => v === null || v === undefined || String(v).trim() === '' || String(v).trim() === '0';
  return !bad(lng) && !bad(lat);
}

export async function guardedReverseGeocode(
  lng: CoordValue,
  lat: CoordValue,
  lookup: (lng: string, lat: string) => Promise<string>,
): Promise<string> {
  if (!isGeocodable(lng, lat)) return '';
  return lookup(String(lng), String(lat));
}
