import dayjs, { type Dayjs } from 'dayjs';
import type { Device, DeviceInput } from '../../../api/equipment';
import { DEFAULT_KIND, MIRRORED_KINDS } from '../../../api/equipment';

/** Where an own device is installed. */
export type PlaceKind = 'none' | 'car' | 'station';

export interface DeviceFormValues {
  kind: string;
  serial: string;
  modelId?: number | null;
  manufacturer?: string;
  installDate?: Dayjs | null;
  warrantyEnd?: Dayjs | null;
  state?: number;
  placeKind?: PlaceKind;
  carId?: number | null;
  stationId?: number | null;
  notes?: string;
}

/** Serial rule of the server: 1–64 letters, digits or . _ : / - */
export const SERIAL_RE = /^[\p{L}\p{N}._:/-]{1,64}$/u;

export const isMirrored = (kind: string) => MIRRORED_KINDS.includes(kind);

/** The colour of a kind's tag: the register kinds and cameras by code, any other kind plain. */
const KIND_COLOURS: Record<string, string> = { terminal: 'blue', lock: 'geekblue', gauge: 'purple', camera: 'cyan' };
export const kindColour = (k: string) => KIND_COLOURS[k] ?? 'default';

const day = (v?: Dayjs | null) => (v ? v.format('YYYY-MM-DD') : '');

/** The save body of the form (a mirrored device's place is its register's and is not sent). */
export function toDeviceBody(v: DeviceFormValues, d: Device | null): DeviceInput {
  const own = !isMirrored(v.kind);
  const place = v.placeKind ?? 'none';
  return {
    id: d?.id || undefined,
    kind: v.kind,
    serial: own ? v.serial.trim().toUpperCase() : (d?.serial ?? v.serial.trim()),
    modelId: v.modelId ?? undefined,
    manufacturer: (v.manufacturer ?? '').trim(),
    installDate: day(v.installDate),
    warrantyEnd: day(v.warrantyEnd),
    state: v.state,
    carId: own && place === 'car' ? (v.carId ?? undefined) : undefined,
    stationId: own && place === 'station' ? (v.stationId ?? undefined) : undefined,
    notes: (v.notes ?? '').trim(),
  };
}

/** The form's values for a device (null: a new one). */
export function toFormValues(d: Device | null): DeviceFormValues {
  if (!d) return { kind: DEFAULT_KIND, serial: '', state: 1, placeKind: 'car' };
  return {
    kind: d.kind,
    serial: d.serial,
    modelId: d.modelId,
    manufacturer: d.manufacturer,
    installDate: d.installDate ? dayjs(d.installDate) : null,
    warrantyEnd: d.warrantyEnd ? dayjs(d.warrantyEnd) : null,
    state: d.state,
    placeKind: d.carId ? 'car' : d.stationId ? 'station' : 'none',
    carId: d.carId,
    stationId: d.stationId,
    notes: d.notes,
  };
}

/** Days from today (YYYY-MM-DD, the browser's day) to a warranty's end; negative once it ended. */
export function daysLeft(end: string, today: string): number {
  return dayjs(end).diff(dayjs(today), 'day');
}

/** The colour of a warranty state's tag (0 none, 1 valid, 2 expiring, 3 expired). */
export const warrantyColour = (w: number) => ({ 1: 'green', 2: 'orange', 3: 'red' })[w] ?? 'default';
/** The colour of a device state's tag. */
export const stateColour = (s: number) => ({ 1: 'green', 2: 'orange', 3: 'default' })[s] ?? 'default';
