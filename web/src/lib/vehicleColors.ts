/**
 * Vehicle status colours (spec §9: a palette of 13 colours for vehicle display). Every map marker,
 * cluster bubble, tree dot and count chip takes its colour from here.
 */
export const VEHICLE_PALETTE = {
  /** code 4, in transit (the cockpit's count colours agree for 4, 5, 7 and 3) */
  moving: '#16a34a',
  /** code 5, resting at low speed */
  resting: '#d97706',
  /** code 7, offline */
  offline: '#8c8c8c',
  /** code 3, abnormal — overrides the three above */
  abnormal: '#dc2626',
  /** no live state known yet */
  unknown: '#7c3aed',
  /** ring around the selected car; also the "total" count chip */
  selected: '#1677ff',
  /** glyph outline */
  outline: '#ffffff',
  /** glyph drop shadow */
  shadow: 'rgba(15, 23, 42, 0.35)',
  /** plate label text */
  label: '#1f2937',
  /** plate label background */
  labelBackground: 'rgba(255, 255, 255, 0.92)',
  /** cluster bubble under 10 cars */
  clusterSmall: '#38bdf8',
  /** cluster bubble under 100 cars */
  clusterMedium: '#0284c7',
  /** cluster bubble of 100 cars or more */
  clusterLarge: '#1e3a8a',
} as const;

export type PaletteName = keyof typeof VEHICLE_PALETTE;

/** Count codes (docs/API.md): 8 total, 4 in transit, 5 resting at low speed, 7 offline, 3 abnormal. */
export const COUNT_CODES = [8, 4, 5, 7, 3] as const;
export type CountCode = (typeof COUNT_CODES)[number];

export function isCountCode(v: unknown): v is CountCode {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && (COUNT_CODES as readonly number[]).includes(n);
}

export function toCountCode(v: unknown): CountCode | null {
  if (!isCountCode(v)) return null;
  return Number(v) as CountCode;
}

export interface VehicleStatus {
  /** 4, 5 or 7; anything else (or missing) is "unknown". */
  code?: number | null;
  abnormal?: boolean | null;
}

export type StatusName = 'moving' | 'resting' | 'offline' | 'abnormal' | 'unknown';

/** Which status colour a car shows: abnormal first, then its code. */
export function statusName(car: VehicleStatus | null | undefined): StatusName {
  if (!car) return 'unknown';
  if (car.abnormal) return 'abnormal';
  switch (car.code) {
    case 4:
      return 'moving';
    case 5:
      return 'resting';
    case 7:
      return 'offline';
    default:
      return 'unknown';
  }
}

export function vehicleColor(car: VehicleStatus | null | undefined): string {
  return VEHICLE_PALETTE[statusName(car)];
}

export interface MarkerStyle {
  fill: string;
  stroke: string;
  strokeWidth: number;
  /** Highlight ring colour, or null when the car is not selected. */
  ring: string | null;
}

/** How a car's glyph is drawn: status fill, white outline; the selected car gets an amber ring. */
export function markerStyle(car: VehicleStatus | null | undefined, selected = false): MarkerStyle {
  return {
    fill: vehicleColor(car),
    stroke: VEHICLE_PALETTE.outline,
    strokeWidth: selected ? 2 : 1.25,
    ring: selected ? VEHICLE_PALETTE.selected : null,
  };
}

/** Bubble colour of a cluster of `count` cars. */
export function clusterColor(count: number): string {
  if (count >= 100) return VEHICLE_PALETTE.clusterLarge;
  if (count >= 10) return VEHICLE_PALETTE.clusterMedium;
  return VEHICLE_PALETTE.clusterSmall;
}

/** Colour of a count chip / status filter. */
export function countCodeColor(code: CountCode): string {
  switch (code) {
    case 4:
      return VEHICLE_PALETTE.moving;
    case 5:
      return VEHICLE_PALETTE.resting;
    case 7:
      return VEHICLE_PALETTE.offline;
    case 3:
      return VEHICLE_PALETTE.abnormal;
    default:
      return VEHICLE_PALETTE.selected;
  }
}

/** Whether a car belongs to a count code: 8 all, 4/5/7 its code, 3 abnormal (overlaps the others). */
export function matchesCode(car: VehicleStatus | null | undefined, code: CountCode | null | undefined): boolean {
  if (code == null || code === 8) return true;
  if (!car) return false;
  if (code === 3) return !!car.abnormal;
  return car.code === code;
}
