import { call, post } from './client';
import type { ExportRequest } from './export';
import type { RecordPage, WaybillState } from './transportProcess';

/**
 * The period overview (statistic, 04-21) and the operations report (report, 04-20): docs/API.md
 * "Period overview and operations report", DECISIONS D56. Periods are days 'YYYY-MM-DD' (Asia/Shanghai);
 * volumes litres, masses tonnes; every trip figure comes from the daily trip rollup.
 */

export interface OverviewQuery {
  start: string;
  end: string;
  groupId?: number;
}

/** The additive figures of a set of finished trips, with the rate and the average derived from them. */
export interface Total {
  key: number;
  trips: number;
  shippedVt: number;
  shippedV20: number;
  shippedT: number;
  receivedV20: number;
  lossL: number;
  km: number;
  tonKm: number;
  timedTrips: number;
  abnormalOpenings: number;
  overAllowance: number;
  lossRatePct: number;
  /** -1: no timed trip */
  avgOutToArrivalMin: number;
}

export interface Tiles extends Total {
  lockTampered: number;
  sealIncidents: number;
}

export interface Named extends Total {
  name: string;
}

export interface Point extends Total {
  day: string;
}

export interface Overview {
  from: string;
  to: string;
  prevFrom: string;
  prevTo: string;
  current: Tiles;
  previous: Tiles;
  byDay: Point[];
  byCompany: Named[];
  byProduct: Named[];
}

export interface NowStates {
  at: string;
  states: { state: WaybillState; count: number }[];
  total: number;
}

export interface TripsQuery extends OverviewQuery {
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: string;
  /** one day of the period */
  day?: string;
  over?: 'over';
}

export type ReportKind = 'day' | 'week' | 'month';

export interface ReportQuery {
  groupId: number;
  kind: ReportKind;
  date: string;
}

export interface StationRow {
  stationId: number;
  name: string;
  unloadings: number;
  cars: number;
  receivedV20: number;
}

export interface Difference {
  kind: 'over' | 'opening' | 'seal';
  waybillId: number;
  waybillNo: string;
  plate: string;
  t: number;
  lossL: number;
  lossRatePct: number;
  allowedPct: number;
  compartment: number;
  sealKind: number;
  sealNo: string;
}

export interface Report {
  groupId: number;
  company: string;
  kind: ReportKind;
  from: string;
  to: string;
  generatedAt: string;
  summary: Tiles;
  cars: Named[];
  products: Named[];
  stations: StationRow[];
  differences: Difference[];
  truncated: boolean;
}

export const selectTrafficStatistics = (q: OverviewQuery) => post<Overview>('/monitor-app/transportProcessItem/selectTrafficStatistics', q);
export const statesNow = (q: { groupId?: number }) =>
  call<NowStates>({ method: 'POST', url: '/base-info-app/transportProcess/transportProcessStatistics', data: q, silent: true });
export const overviewTrips = (q: TripsQuery) => post<RecordPage>('/monitor-app/transportProcessItem/trips', q);
export const statisticExport = (q: OverviewQuery): ExportRequest => ({
  url: '/monitor-app/transportProcessItem/exportStatistics',
  data: q,
  fallbackName: 'overview.xlsx',
});
export const operationsReport = (q: ReportQuery) => post<Report>('/monitor-app/report/operations', q);
export const reportExport = (q: ReportQuery): ExportRequest => ({ url: '/monitor-app/report/export', data: q, fallbackName: 'operations-report.xlsx' });
