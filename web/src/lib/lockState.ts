/**
 * The spec's tank lock-state string (§3, §9): 4 groups of 32 characters, one group per device kind
 * (small manhole cover, manhole cover, oil discharge valve, bottom valve); in each group one 4-character
 * slot per compartment (houseNumber 1–8) giving installed, open, locked and fault as '1' or '0'.
 */
export const DEVICE_KINDS = ['smallManholeCover', 'manholeCover', 'oilDischargeValve', 'bottomValve'] as const;
export type DeviceKindName = (typeof DEVICE_KINDS)[number];

export const LOCK_GROUPS = 4;
export const LOCK_GROUP_LEN = 32;
export const LOCK_SLOT_LEN = 4;
export const MAX_COMPARTMENTS = LOCK_GROUP_LEN / LOCK_SLOT_LEN;

export interface DeviceState {
  kind: DeviceKindName;
  installed: boolean;
  open: boolean;
  locked: boolean;
  fault: boolean;
}

export interface CompartmentLock {
  /** houseNumber, 1–8 */
  no: number;
  devices: DeviceState[];
}

/**
 * Parses a lock-state string into the compartments that have at least one installed device, in
 * compartment order. Anything that is not a 128-character string of 0/1 gives [].
 */
export function parseLockState(text: string | null | undefined): CompartmentLock[] {
  if (!text || text.length !== LOCK_GROUPS * LOCK_GROUP_LEN || /[^01]/.test(text)) return [];
  const out: CompartmentLock[] = [];
  for (let c = 0; c < MAX_COMPARTMENTS; c++) {
    const devices = DEVICE_KINDS.map((kind, k) => {
      const at = k * LOCK_GROUP_LEN + c * LOCK_SLOT_LEN;
      const bit = (j: number) => text[at + j] === '1';
      return { kind, installed: bit(0), open: bit(1), locked: bit(2), fault: bit(3) };
    });
    if (devices.some((d) => d.installed)) out.push({ no: c + 1, devices });
  }
  return out;
}

export interface LockSummary {
  installed: number;
  open: number;
  closed: number;
  locked: number;
  fault: number;
}

/** Counts of a compartment's installed devices. */
export function summarize(c: CompartmentLock): LockSummary {
  const s: LockSummary = { installed: 0, open: 0, closed: 0, locked: 0, fault: 0 };
  for (const d of c.devices) {
    if (!d.installed) continue;
    s.installed++;
    if (d.open) s.open++;
    else s.closed++;
    if (d.locked) s.locked++;
    if (d.fault) s.fault++;
  }
  return s;
}

export type CompartmentStatus = 'fault' | 'open' | 'locked' | 'closed';

/** The most urgent state of a compartment: a fault, else anything open, else all locked, else closed. */
export function compartmentStatus(s: LockSummary): CompartmentStatus {
  if (s.fault > 0) return 'fault';
  if (s.open > 0) return 'open';
  if (s.installed > 0 && s.locked === s.installed) return 'locked';
  return 'closed';
}
