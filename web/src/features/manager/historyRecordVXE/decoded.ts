import type { DecodedLocation, DecodedTank } from '../../../api/history';

/** Pure helpers that turn a decoded frame's body (docs/API.md "Raw frame") into what the page shows. */

export type BodyShape =
  | { kind: 'location'; location: DecodedLocation }
  | { kind: 'batch'; type: number; blind: boolean; items: DecodedLocation[]; cut?: string }
  | { kind: 'controlReply'; serial: number; location: DecodedLocation }
  | { kind: 'passThrough'; type: string; hex: string; tank?: DecodedTank; tankError?: string }
  | { kind: 'hex'; hex: string }
  | { kind: 'fields'; rows: FieldRow[] }
  | { kind: 'none' };

export interface FieldRow {
  /** dotted path of the field: "params.0.id" */
  key: string;
  value: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function isLocation(v: unknown): v is DecodedLocation {
  return isObject(v) && 'lat' in v && 'lng' in v && Array.isArray(v.items) && typeof v.alarm === 'string';
}

/** Which of the decoded body forms this is. */
export function bodyShape(body: Record<string, unknown> | undefined | null): BodyShape {
  if (!body) return { kind: 'none' };
  if (isLocation(body)) return { kind: 'location', location: body };
  if (Array.isArray(body.items) && 'blind' in body) {
    const cut = typeof body.cut === 'string' ? body.cut : undefined;
    return { kind: 'batch', type: Number(body.type), blind: !!body.blind, items: body.items.filter(isLocation), cut };
  }
  if (isLocation(body.location)) return { kind: 'controlReply', serial: Number(body.serial), location: body.location };
  if (typeof body.type === 'string' && typeof body.hex === 'string') {
    return { kind: 'passThrough', type: body.type, hex: body.hex, tank: body.tank as DecodedTank | undefined, tankError: body.tankError as string | undefined };
  }
  const keys = Object.keys(body);
  if (keys.length === 1 && keys[0] === 'hex') return { kind: 'hex', hex: String(body.hex) };
  return { kind: 'fields', rows: fieldRows(body) };
}

/** A value for display: strings as they are, numbers and booleans as text, small objects as "k=v, …". */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(valueText).join(', ');
  if (isObject(v)) return Object.entries(v).map(([k, x]) => `${k}=${valueText(x)}`).join(', ');
  return String(v);
}

/** Flattens nested fields into dotted rows (arrays of objects by index), in the body's order. */
export function fieldRows(body: Record<string, unknown>, prefix = ''): FieldRow[] {
  const out: FieldRow[] = [];
  for (const [k, v] of Object.entries(body)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (isObject(v)) out.push(...fieldRows(v, key));
    else if (Array.isArray(v) && v.some(isObject)) v.forEach((x, i) => (isObject(x) ? out.push(...fieldRows(x, `${key}.${i}`)) : out.push({ key: `${key}.${i}`, value: valueText(x) })));
    else out.push({ key, value: valueText(v) });
  }
  return out;
}

/** Splits hex into byte pairs separated by spaces, for reading. */
export function spacedHex(hex: string): string {
  return (hex.match(/.{1,2}/g) ?? []).join(' ');
}
