import type { TFunction } from 'i18next';

/** Fuel types (docs/API.md): 0 0#柴油, 1 92#汽油, 2 95#汽油, 3 天然气. */
export const FUEL_TYPES = [0, 1, 2, 3] as const;
export const fuelOptions = (t: TFunction) => FUEL_TYPES.map((v) => ({ value: v, label: t(`car.fuel${v}`) }));
export const fuelLabel = (t: TFunction, v: number | null | undefined) => (v != null && v >= 0 && v <= 3 ? t(`car.fuel${v}`) : '');

/**
 * A typed plate as the registry keeps it (the server's plate.Display): full-width letters and digits
 * half-width, upper-cased, and a separator (a middle dot in any form, a full stop, hyphen or space)
 * written as the plate's own "·". 苏a 12345 → 苏A·12345; 苏A12345 stays without a dot.
 */
export function canonicalPlate(v: string): string {
  return v
    .trim()
    .replace(/[Ａ-Ｚａ-ｚ０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .toUpperCase()
    .replace(/[·・･•⋅‧.．\-－\s]+/g, '·')
    .replace(/^·+|·+$/g, '');
}

/** Server plate rule (internal/fleet/cars.go), applied to canonicalPlate of the input. */
export const PLATE_RE = /^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z]·?([A-Z0-9]{5,6}|[A-Z0-9]{4}挂)$/;
export const VIN_RE = /^[A-HJ-NPR-Z0-9]{17}$/;
export const MOBILE_RE = /^1\d{10}$/;
