import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * Lock and seal statistics (docs/API.md "Lock and seal statistics", DECISIONS D54): per page a paged
 * list of period × car / company / lock rows with their figures, the totals of the filtered set and
 * the sums by period for the chart; the rows behind any figure; xlsx exports.
 */

export type StatKind = 'lock' | 'seal';
export type StatPeriod = 'day' | 'week' | 'month' | 'all';
export type StatBy = 'car' | 'group' | 'lock';
export type StatPageName =
  | 'blueLockStat'
  | 'blueLockStat2'
  | 'blueLockWeekStat'
  | 'blueLockMonthStat'
  | 'sealRecordStat'
  | 'sealRecordWeekStat'
  | 'sealRecordMonthStat';

export interface StatQuery extends PageQuery {
  /** 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai): the days from start to end are counted. */
  start?: string;
  end?: string;
  by?: StatBy;
  groupId?: number;
  carId?: number;
  serial?: string;
}

export type Figures = Record<string, number>;

export interface StatRow {
  period: number;
  label: string;
  /** The days the row counts, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  carId?: number;
  groupId?: number;
  serial?: string;
  name: string;
  detail: string;
  figures: Figures;
}

export interface StatResult extends Page<StatRow> {
  /** The days counted (whole weeks / months on those pages). */
  from: string;
  to: string;
  totals: Figures;
  chart: StatRow[];
}

export const statPage = (page: StatPageName, q: StatQuery) => post<StatResult>(`/monitor-app/${page}/page`, q);

export function statExport(page: StatPageName, q: Omit<StatQuery, 'pageNum' | 'pageSize'>): ExportRequest {
  return { url: `/monitor-app/${page}/export`, method: 'POST', data: q, fallbackName: `${page}.xlsx` };
}

export interface DrillQuery extends PageQuery {
  kind: StatKind;
  column: string;
  from: string;
  to: string;
  groupId?: number;
  companyId?: number;
  carId?: number;
  serial?: string;
}

export interface DrillRow {
  id: number;
  t: string | null;
  serial?: string;
  plate: string;
  groupName: string;
  compartment: number;
  device: number;
  event?: number;
  method: number;
  stationName: string;
  waybillNo: string;
  sealNo?: string;
  state?: number;
  kind?: number;
  brokenAt?: string | null;
  detail?: string;
  backAt?: string | null;
  countedTo?: string | null;
  seconds?: number;
}

export interface DrillResult extends Page<DrillRow> {
  shape: 'events' | 'offline' | 'seals' | 'incidents';
  /** What the rows add up to: their count, or the offline seconds. */
  sum: number;
}

export const statRows = (q: DrillQuery) => post<DrillResult>('/monitor-app/lockStat/rows', q);
