import type { TankCompartment, TankDevice } from '../../../api/tankMonitor';

/**
 * How full a compartment is drawn, 0–1, or null when nothing says it: the level against the
 * compartment's height where tankInfo gives one (the liquid's surface is drawn where the probe
 * reads it), else the volume against the capacity. Clamped: an overfilled or mis-configured
 * compartment is drawn full, its figures still say what was read.
 */
export function fillFraction(c: Pick<TankCompartment, 'hasReading' | 'levelMm' | 'heightMm' | 'volume' | 'capacity'>): number | null {
  if (!c.hasReading) return null;
  let f: number;
  if (c.heightMm > 0) f = c.levelMm / c.heightMm;
  else if (c.capacity > 0) f = c.volume / c.capacity;
  else return null;
  if (!Number.isFinite(f)) return null;
  return Math.min(1, Math.max(0, f));
}

/** The tank section's drawing box (an ellipse: the end view of a tanker compartment). */
export interface SectionBox {
  width: number;
  height: number;
  pad: number;
}

export const SECTION: SectionBox = { width: 150, height: 110, pad: 6 };

/**
 * The liquid as a rectangle clipped by the ellipse: its top edge (y) is the surface at fraction f of
 * the inner height, measured from the bottom. f null or 0 gives an empty rectangle.
 */
export function liquidRect(f: number | null, box: SectionBox = SECTION): { x: number; y: number; width: number; height: number } {
  const inner = box.height - 2 * box.pad;
  const h = f == null ? 0 : Math.round(inner * f * 10) / 10;
  return { x: box.pad, y: box.pad + inner - h, width: box.width - 2 * box.pad, height: h };
}

/** A device's state as one word (the icon and the text carry it, not the colour alone). */
export type DeviceStateName = 'notFitted' | 'fault' | 'open' | 'locked' | 'closed';

/** Fault wins (a faulty device's other bits are not trusted), then open, then locked, else closed. */
export function deviceState(d: Pick<TankDevice, 'fitted' | 'open' | 'locked' | 'fault'>): DeviceStateName {
  if (!d.fitted) return 'notFitted';
  if (d.fault) return 'fault';
  if (d.open) return 'open';
  if (d.locked) return 'locked';
  return 'closed';
}

/** The figure with its unit, or '—' when the compartment has no reading. */
export function figure(c: Pick<TankCompartment, 'hasReading'>, v: number, digits = 1): string {
  if (!c.hasReading || !Number.isFinite(v)) return '—';
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** Stored key of the last car the tank monitor showed. */
export const LAST_CAR_KEY = 'tw.tankMonitor.car';

/** The car to show: ?carId= first, else the last one shown; undefined when neither is a positive id. */
export function initialCar(search: string, stored: string | null): number | undefined {
  const q = new URLSearchParams(search).get('carId');
  for (const v of [q, stored]) {
    const n = Number(v);
    if (v && Number.isInteger(n) && n > 0) return n;
  }
  return undefined;
}
