import { describe, expect, it } from 'vitest';
import { changed, draftOf, problems, toSave } from './fields';
import { gaugeProblem, validHost } from './gauge';
import { capacityWarning, checkRows, parsePaste, rowAfter, tableCapacity, type EditRow } from './strap';

const rows = (...p: (number | null)[]): EditRow[] => {
  const out: EditRow[] = [];
  for (let i = 0; i + 1 < p.length; i += 2) out.push({ height: p[i], volume: p[i + 1] });
  return out;
};

describe('checkRows mirrors tank.Strap.Validate (every row, first error = Validate)', () => {
  it.each([
    ['a good table', rows(0, 0, 100, 50, 200, 120), []],
    ['empty = no table', [], []],
    ['one row', rows(0, 0), [{ row: 0, reason: 'tooFew' }]],
    ['heights equal', rows(0, 0, 100, 50, 100, 60), [{ row: 3, reason: 'notRising' }]],
    ['heights falling', rows(0, 0, 100, 50, 90, 60), [{ row: 3, reason: 'notRising' }]],
    ['volume falling, later negative', rows(0, 0, 100, 50, 200, 40, 300, -1), [{ row: 3, reason: 'falling' }, { row: 4, reason: 'negative' }]],
    ['equal volumes are allowed', rows(0, 0, 100, 0, 200, 5), []],
    ['an empty cell', rows(0, 0, null, 5), [{ row: 2, reason: 'badRow' }]],
    ['too high', rows(0, 0, 20001, 5), [{ row: 2, reason: 'tooHigh' }]],
    ['too large', rows(0, 0, 10, 10000001), [{ row: 2, reason: 'tooLarge' }]],
  ])('%s', (_, r, want) => {
    expect(checkRows(r)).toEqual(want);
  });

  it('limits the rows to 5000', () => {
    const many = Array.from({ length: 5001 }, (_, i) => ({ height: i, volume: i }));
    expect(checkRows(many)).toEqual([{ row: 0, reason: 'tooMany' }]);
    expect(checkRows(many.slice(0, 5000))).toEqual([]);
  });
});

describe('parsePaste', () => {
  it('reads tab-separated cells from Excel with a header and a trailing newline', () => {
    expect(parsePaste('高度(mm)\t容积(L)\r\n0\t0\r\n20\t12.5\r\n40\t1,035.1\r\n')).toEqual({
      rows: rows(0, 0, 20, 12.5, 40, 1035.1),
      badLines: [],
      header: true,
    });
  });
  it('reads commas, semicolons and spaces, skipping blank lines and extra columns', () => {
    expect(parsePaste('0,0\n\n10,5,remark\n').rows).toEqual(rows(0, 0, 10, 5));
    expect(parsePaste('0;0\n10;5').rows).toEqual(rows(0, 0, 10, 5));
    expect(parsePaste('0   0\n10  5').rows).toEqual(rows(0, 0, 10, 5));
  });
  it('names lines that are not two numbers', () => {
    const r = parsePaste('0\t0\n10\tabc\n\n20\n30\t30');
    expect(r.badLines).toEqual([2, 4]);
    expect(r.header).toBe(false);
  });
  it('a header only counts on the first line', () => {
    expect(parsePaste('0\t0\nh\tv').badLines).toEqual([2]);
  });
});

describe('capacity', () => {
  it('is the top row of a valid table', () => {
    expect(tableCapacity(rows(0, 0, 1800, 10000))).toBe(10000);
    expect(tableCapacity(rows(0, 0, 1800, 10000, 1700, 10001))).toBe(0);
    expect(tableCapacity([])).toBe(0);
  });
  it('warns beyond 2 % from the nominal capacity', () => {
    expect(capacityWarning(10200, 10000)).toBe(false);
    expect(capacityWarning(10201, 10000)).toBe(true);
    expect(capacityWarning(9799, 10000)).toBe(true);
    expect(capacityWarning(0, 10000)).toBe(false);
    expect(capacityWarning(5000, 0)).toBe(false);
  });
});

describe('rowAfter', () => {
  const r = rows(0, 0, 100, 60, 200, 130);
  it('inserts halfway between rows and steps past the last', () => {
    expect(rowAfter(r, 0)).toEqual({ height: 50, volume: 30 });
    expect(rowAfter(r, 2)).toEqual({ height: 300, volume: 200 });
    expect(rowAfter([], -1)).toEqual({ height: null, volume: null });
  });
});

describe('gauge connection', () => {
  it.each(['192.168.1.20', '::1', 'fe80::1', '2001:db8::8', '::ffff:10.0.0.1', 'atg-01.station.example', 'localhost'])('%s is an address', (h) => {
    expect(validHost(h)).toBe(true);
  });
  it.each(['300.1.2.3', '1.2.3', '-atg', 'atg_1', 'a..b', 'http://x', '1.2.3.4:10001', '1::2::3'])('%s is not', (h) => {
    expect(validHost(h)).toBe(false);
  });
  it('is all three or none', () => {
    expect(gaugeProblem('', null, null)).toBeNull();
    expect(gaugeProblem('10.0.0.5', 10001, 1)).toBeNull();
    expect(gaugeProblem('10.0.0.5', null, 1)).toBe('partial');
    expect(gaugeProblem('10.0.0.500', 10001, 1)).toBe('host');
    expect(gaugeProblem('10.0.0.5', 70000, 1)).toBe('port');
    expect(gaugeProblem('10.0.0.5', 10001, 100)).toBe('tank');
  });
});

describe('compartment drafts', () => {
  const comp = {
    no: 1,
    saved: true,
    product: 1,
    capacity: 10000,
    height: 1800,
    probeType: '雷达',
    probeOffset: 0,
    density20: 0,
    strap: [
      { height: 0, volume: 0 },
      { height: 1800, volume: 10000 },
    ],
    tableCapacity: 10000,
    capacityWarning: false,
    outside: false,
    updatedAt: '',
  };
  it('flags the fields the server would refuse', () => {
    const d = draftOf(comp);
    expect(problems(d)).toEqual([]);
    expect(problems({ ...d, probeOffset: 501 }).map((p) => p.field)).toEqual(['probeOffset']);
    expect(problems({ ...d, density20: 450 }).map((p) => p.field)).toEqual(['density20']);
    expect(problems({ ...d, density20: 0 })).toEqual([]);
    expect(problems({ ...d, rows: rows(0, 0, 0, 5) }).map((p) => p.field)).toEqual(['strap']);
  });
  it('saves the kept compartments inside the registered count', () => {
    const kept = draftOf(comp);
    const slot = draftOf({ ...comp, no: 2, saved: false, strap: [] });
    const outside = draftOf({ ...comp, no: 4, outside: true });
    expect(toSave([kept, slot, outside]).map((c) => c.no)).toEqual([1]);
    expect(changed([kept], [draftOf(comp)])).toBe(false);
    expect(changed([{ ...kept, rows: rows(0, 0, 100, 10) }], [kept])).toBe(true);
  });
});
