import { describe, expect, it } from 'vitest';
import type { ParamRow } from '../../../api/parameter';
import { changeLine, diff, fieldName, initialValues, probeTable, validate } from './logic';

const row = (p: Partial<ParamRow>): ParamRow => ({
  id: 1, hex: '0x0001', key: 'heartbeat', name: '心跳间隔', group: 'comm', compartment: 0, kind: 0, min: 1, max: 3600,
  unit: 's', unitText: '秒', value: 60, source: 'read', at: null, ...p,
});

describe('validate', () => {
  it('numbers: whole and within the range', () => {
    expect(validate(row({}), 60)).toBeNull();
    expect(validate(row({}), 0)?.key).toBe('range');
    expect(validate(row({}), 3601)).toEqual({ key: 'range', args: { min: 1, max: 3600 } });
    expect(validate(row({}), 1.5)?.key).toBe('integer');
    expect(validate(row({}), '60')?.key).toBe('integer');
    expect(validate(row({}), null)?.key).toBe('required');
    expect(validate(row({ kind: 1, min: -500, max: 500 }), -500)).toBeNull();
    expect(validate(row({ kind: 1, min: -500, max: 500 }), -501)?.key).toBe('range');
  });
  it('strings: length and characters', () => {
    const host = row({ kind: 2, min: 5, max: 63 });
    expect(validate(host, 'gw.example.com')).toBeNull();
    expect(validate(host, ' gw.example.com ')).toBeNull();
    expect(validate(host, 'a.b')?.key).toBe('length');
    expect(validate(host, 'host;evil')?.key).toBe('chars');
  });
});

describe('diff', () => {
  const rows = [
    row({}),
    row({ id: 0xf011, key: 'zeroOffset', group: 'probe', compartment: 1, kind: 1, min: -500, max: 500, value: 0, name: '1 号仓 零点偏移', unitText: '毫米' }),
    row({ id: 0x13, key: 'mainServer', kind: 2, min: 5, max: 63, value: 'gw.example.com', unitText: '' }),
    row({ id: 0x56, key: 'overspeedTime', value: null }),
    row({ id: 0x9999, group: 'other', value: 'x' }),
  ];
  it('lists only what changed, old → new', () => {
    const v = initialValues(rows);
    expect(diff(rows, v)).toEqual([]);
    v[fieldName(0xf011)] = -12;
    v[fieldName(0x13)] = ' gw.example.com ';
    const d = diff(rows, v);
    expect(d).toEqual([{ id: 0xf011, name: '1 号仓 零点偏移', unitText: '毫米', old: 0, new: -12 }]);
    expect(changeLine(d[0])).toBe('1 号仓 零点偏移: 0 → -12 毫米');
  });
  it('a value never read becomes a change when filled, stays none when empty', () => {
    const v = initialValues(rows);
    expect(diff(rows, v)).toEqual([]);
    v[fieldName(0x56)] = 10;
    expect(diff(rows, v).map(changeLine)).toEqual(['心跳间隔: — → 10 秒']);
  });
});

describe('probeTable', () => {
  it('groups the probe rows per compartment', () => {
    const t = probeTable([
      row({ id: 0xf021, key: 'zeroOffset', group: 'probe', compartment: 2 }),
      row({ id: 0xf011, key: 'zeroOffset', group: 'probe', compartment: 1 }),
      row({ id: 0xf012, key: 'probeLength', group: 'probe', compartment: 1 }),
      row({}),
    ]);
    expect(t.map((l) => l.compartment)).toEqual([1, 2]);
    expect(Object.keys(t[0].cells)).toEqual(['zeroOffset', 'probeLength']);
  });
});
