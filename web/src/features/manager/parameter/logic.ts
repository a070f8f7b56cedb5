import type { ParamRow, ParamValue } from '../../../api/parameter';

/** A value as the form holds it: InputNumber gives numbers (or null when cleared), Input strings. */
export type FormValue = number | string | null | undefined;

/** Why a value is refused, as an i18n key under parameter.err and its arguments. */
export interface Problem {
  key: 'required' | 'integer' | 'range' | 'length' | 'chars';
  args: Record<string, string | number>;
}

const HOST_CHARS = /^[A-Za-z0-9._-]+$/;

/** The server's rules (internal/tank/calib Check): numbers whole and in [min, max]; strings by length and characters. */
export function validate(row: Pick<ParamRow, 'kind' | 'min' | 'max'>, v: FormValue): Problem | null {
  if (v === null || v === undefined || v === '') return { key: 'required', args: {} };
  if (row.kind === 2) {
    const s = String(v).trim();
    if (s.length < row.min || s.length > row.max) return { key: 'length', args: { min: row.min, max: row.max } };
    if (!HOST_CHARS.test(s)) return { key: 'chars', args: {} };
    return null;
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) return { key: 'integer', args: {} };
  if (v < row.min || v > row.max) return { key: 'range', args: { min: row.min, max: row.max } };
  return null;
}

export interface Change {
  id: number;
  name: string;
  unitText: string;
  old: ParamValue | null;
  new: ParamValue;
}

function same(a: ParamValue | null, b: FormValue): boolean {
  if (a === null) return b === null || b === undefined || b === '';
  if (typeof a === 'string') return typeof b === 'string' && a === b.trim();
  return a === b;
}

/**
 * The parameters whose form value differs from the last known one, in form order. An empty field of a
 * parameter never read is not a change. Strings are compared and sent trimmed.
 */
export function diff(rows: ParamRow[], values: Record<string, FormValue>): Change[] {
  const out: Change[] = [];
  for (const r of rows) {
    if (r.group === 'other') continue;
    const v = values[fieldName(r.id)];
    if (same(r.value, v) || v === null || v === undefined || v === '') continue;
    out.push({ id: r.id, name: r.name, unitText: r.unitText, old: r.value, new: typeof v === 'string' ? v.trim() : v });
  }
  return out;
}

/** "1 号仓 零点偏移: 0 → -12 毫米"; an unknown old value reads "—". */
export function changeLine(c: Change): string {
  const unit = c.unitText ? ` ${c.unitText}` : '';
  return `${c.name}: ${c.old ?? '—'} → ${c.new}${unit}`;
}

/** The form field of a parameter. */
export const fieldName = (id: number) => `p${id}`;

/** The form's values from the last known ones. */
export function initialValues(rows: ParamRow[]): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const r of rows) out[fieldName(r.id)] = r.value ?? undefined;
  return out;
}

/** Probe rows as a table: one line per compartment, one column per field key. */
export function probeTable(rows: ParamRow[]): { compartment: number; cells: Record<string, ParamRow> }[] {
  const by = new Map<number, Record<string, ParamRow>>();
  for (const r of rows) {
    if (r.group !== 'probe') continue;
    const line = by.get(r.compartment) ?? {};
    line[r.key] = r;
    by.set(r.compartment, line);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([compartment, cells]) => ({ compartment, cells }));
}

/** Probe field keys in column order. */
export const PROBE_FIELDS = ['zeroOffset', 'probeLength', 'tankHeight', 'tempOffset', 'filter'] as const;

/** How often the page asks for a command's state while it waits (ms). */
export const POLL_MS = 1000;
