import type { Compartment, CompartmentInput } from '../../../api/tankInfo';
import { checkRows, fromStrap, toStrap, type EditRow } from './strap';

/** Limits of the fields, the same as internal/tank/tankinfo (the server checks them again). */
export const MAX_PROBE_OFFSET = 500;
export const MIN_DENSITY = 500; // tank.MinDensity20
export const MAX_DENSITY = 1100;
export const MAX_CAPACITY = 10000000;
export const MAX_HEIGHT = 20000;

/** A compartment being edited; keep: it is (or becomes) one tankInfo keeps. */
export interface CompDraft {
  no: number;
  keep: boolean;
  product: number;
  capacity: number | null;
  height: number | null;
  probeType: string;
  probeOffset: number | null;
  density20: number | null;
  rows: EditRow[];
  saved: boolean;
  outside: boolean;
}

export function draftOf(c: Compartment): CompDraft {
  return {
    no: c.no,
    keep: c.saved,
    product: c.product,
    capacity: c.capacity,
    height: c.height,
    probeType: c.probeType,
    probeOffset: c.probeOffset,
    density20: c.density20,
    rows: fromStrap(c.strap),
    saved: c.saved,
    outside: c.outside,
  };
}

/** A field problem: an i18n key with its values. */
export interface Problem {
  field: 'capacity' | 'height' | 'probeOffset' | 'density20' | 'probeType' | 'strap';
  key: string;
  values?: Record<string, unknown>;
}

export function densityOk(v: number | null): boolean {
  return v === null || v === 0 || (v >= MIN_DENSITY && v <= MAX_DENSITY);
}

/** What is wrong with a compartment before it is sent (the server says the same). */
export function problems(d: CompDraft): Problem[] {
  const out: Problem[] = [];
  if (d.capacity !== null && (d.capacity < 0 || d.capacity > MAX_CAPACITY)) out.push({ field: 'capacity', key: 'tankInfo.rangeError', values: { min: 0, max: MAX_CAPACITY } });
  if (d.height !== null && (d.height < 0 || d.height > MAX_HEIGHT)) out.push({ field: 'height', key: 'tankInfo.rangeError', values: { min: 0, max: MAX_HEIGHT } });
  if (d.probeOffset !== null && Math.abs(d.probeOffset) > MAX_PROBE_OFFSET) out.push({ field: 'probeOffset', key: 'tankInfo.rangeError', values: { min: -MAX_PROBE_OFFSET, max: MAX_PROBE_OFFSET } });
  if (!densityOk(d.density20)) out.push({ field: 'density20', key: 'tankInfo.densityError', values: { min: MIN_DENSITY, max: MAX_DENSITY } });
  if (d.probeType.trim().length > 32) out.push({ field: 'probeType', key: 'tankInfo.tooLong', values: { n: 32 } });
  if (checkRows(d.rows).length > 0) out.push({ field: 'strap', key: 'tankInfo.strapHasErrors' });
  return out;
}

export function toInput(d: CompDraft): CompartmentInput {
  return {
    no: d.no,
    product: d.product,
    capacity: Math.round(d.capacity ?? 0),
    height: Math.round(d.height ?? 0),
    probeType: d.probeType.trim(),
    probeOffset: Math.round(d.probeOffset ?? 0),
    density20: d.density20 ?? 0,
    strap: toStrap(d.rows),
  };
}

/** The compartments a save sends: those kept, outside the registered count dropped. */
export function toSave(drafts: CompDraft[]): CompartmentInput[] {
  return drafts.filter((d) => d.keep && !d.outside).map(toInput);
}

/** Whether the drafts differ from what was loaded. */
export function changed(a: CompDraft[], b: CompDraft[]): boolean {
  return JSON.stringify(a) !== JSON.stringify(b);
}
