import { call } from './client';
import { guardedReverseGeocode } from '../lib/geocode';
import type { CoordValue } from '../lib/coords';

/**
 * Reverse geocoding (docs/API.md "Reverse geocoding"): the address text of a WGS-84 point, '' without
 * calling the server when the point is missing (spec §5).
 */
export const getAddress = (lng: CoordValue, lat: CoordValue) =>
  guardedReverseGeocode(lng, lat, (x, y) =>
    call<string>({ method: 'GET', url: '/hbase/getAddress', params: { lng: x, lat: y }, silent: true }, false),
  );
