import type { StrapRow } from '../../../api/tankInfo';

/** Limits of a strapping table: the same as tank.Strap.Validate (internal/tank/strap.go). */
export const STRAP_MIN_ROWS = 2;
export const STRAP_MAX_ROWS = 5000;
export const STRAP_MAX_HEIGHT = 20000;
export const STRAP_MAX_VOLUME = 10000000;
/** A table top further than this from the nominal capacity is flagged (tankinfo.CapacityDiff). */
export const CAPACITY_DIFF = 0.02;

export type StrapReason = 'tooFew' | 'tooMany' | 'badRow' | 'negative' | 'tooHigh' | 'tooLarge' | 'notRising' | 'falling';

/** A wrong row (row counts from 1; 0 is the table as a whole). */
export interface RowError {
  row: number;
  reason: StrapReason;
}

/** An editor row: a number, or null while the cell is empty. */
export interface EditRow {
  height: number | null;
  volume: number | null;
}

function rowReason(rows: EditRow[], i: number): StrapReason | null {
  const r = rows[i];
  if (r.height === null || r.volume === null || !Number.isFinite(r.height) || !Number.isFinite(r.volume)) return 'badRow';
  if (r.height < 0 || r.volume < 0) return 'negative';
  if (r.height > STRAP_MAX_HEIGHT) return 'tooHigh';
  if (r.volume > STRAP_MAX_VOLUME) return 'tooLarge';
  if (i > 0) {
    const p = rows[i - 1];
    if (p.height !== null && Number.isFinite(p.height) && r.height <= p.height) return 'notRising';
    if (p.volume !== null && Number.isFinite(p.volume) && r.volume < p.volume) return 'falling';
  }
  return null;
}

/**
 * Every wrong row of a table, mirroring tank.Strap.Validate (which stops at the first) and
 * tankinfo.CheckRows: an empty table is no table (no error); one row is too few.
 */
export function checkRows(rows: EditRow[]): RowError[] {
  if (rows.length === 0) return [];
  if (rows.length < STRAP_MIN_ROWS) return [{ row: 0, reason: 'tooFew' }];
  if (rows.length > STRAP_MAX_ROWS) return [{ row: 0, reason: 'tooMany' }];
  const out: RowError[] = [];
  for (let i = 0; i < rows.length; i++) {
    const reason = rowReason(rows, i);
    if (reason) out.push({ row: i + 1, reason });
  }
  return out;
}

/** Reads one number of a pasted cell: spaces and thousands separators ("10,000" only with a tab separator) aside. */
function num(cell: string, commaIsSeparator: boolean): number | null {
  let s = cell.trim().replace(/\s+/g, '');
  if (!commaIsSeparator) s = s.replace(/,(?=\d{3}(\D|$))/g, '');
  if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return null;
  return Number(s);
}

export interface PasteResult {
  rows: EditRow[];
  /** Lines (from 1) that were not two numbers. */
  badLines: number[];
  /** A first line of text (a header) was skipped. */
  header: boolean;
}

/**
 * Parses two columns pasted from a spreadsheet: one row per line, cells separated by a tab (Excel, WPS),
 * or by a comma or semicolon or spaces (CSV, text). Blank lines are skipped; a first line that is not
 * numbers is a header; further columns are ignored.
 */
export function parsePaste(text: string): PasteResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const rows: EditRow[] = [];
  const badLines: number[] = [];
  let header = false;
  let first = true;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const tab = line.includes('\t');
    const cells = tab ? line.split('\t') : line.includes(';') ? line.split(';') : line.includes(',') ? line.split(',') : line.trim().split(/\s+/);
    const h = num(cells[0] ?? '', !tab);
    const v = num(cells[1] ?? '', !tab);
    if (first && h === null && v === null) {
      header = true;
      first = false;
      return;
    }
    first = false;
    if (h === null || v === null) {
      badLines.push(i + 1);
      return;
    }
    rows.push({ height: h, volume: v });
  });
  return { rows, badLines, header };
}

/** The table's top volume (0 for an empty or wrong table): the capacity shown. */
export function tableCapacity(rows: EditRow[]): number {
  if (rows.length < STRAP_MIN_ROWS || checkRows(rows).length > 0) return 0;
  return rows[rows.length - 1].volume ?? 0;
}

/** The table's top differs from the nominal capacity by more than 2 %. */
export function capacityWarning(top: number, nominal: number | null | undefined): boolean {
  if (!top || !nominal || nominal <= 0) return false;
  return Math.abs(top - nominal) > CAPACITY_DIFF * nominal;
}

/** The rows as the API takes them (only for a table without errors). */
export function toStrap(rows: EditRow[]): StrapRow[] {
  return rows.map((r) => ({ height: r.height ?? 0, volume: r.volume ?? 0 }));
}

export function fromStrap(rows: StrapRow[] | undefined): EditRow[] {
  return (rows ?? []).map((r) => ({ height: r.height, volume: r.volume }));
}

/** A row to insert after index i (-1: at the top): halfway to the next row, or one step past the last. */
export function rowAfter(rows: EditRow[], i: number): EditRow {
  const prev = i >= 0 ? rows[i] : undefined;
  const next = rows[i + 1];
  if (prev && next && prev.height !== null && next.height !== null && prev.volume !== null && next.volume !== null) {
    return { height: Math.round(((prev.height + next.height) / 2) * 10) / 10, volume: Math.round(((prev.volume + next.volume) / 2) * 10) / 10 };
  }
  if (prev && !next && i > 0) {
    const before = rows[i - 1];
    if (prev.height !== null && before.height !== null && prev.volume !== null && before.volume !== null) {
      return { height: prev.height + (prev.height - before.height), volume: prev.volume + (prev.volume - before.volume) };
    }
  }
  if (!prev && next) return { height: 0, volume: 0 };
  return { height: null, volume: null };
}
