import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * The car, company and product statistics (docs/API.md "Car, company and product statistics", D50/D55):
 * sums of the finished trips (CLOSED / DIFF_FLAGGED, by closing day in Asia/Shanghai) per car, carrier or
 * sales company, or product, and the trips behind every number. Volumes litres, masses tonnes.
 */

export type StatKind = 'car' | 'company' | 'product';

export interface StatQuery extends PageQuery {
  /** 'YYYY-MM-DD HH:mm:ss' or Unix ms; whole days are counted */
  start?: string | number;
  end?: string | number;
  /** the "2" page: the sales company's view */
  sales?: boolean;
  groupId?: number;
  carId?: number;
  productId?: number;
}

export interface StatFigures {
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
  /** loss over shipped V20, % */
  lossRatePct: number;
  /** -1: no timed trip */
  avgOutToArrivalMin: number;
}

export interface StatRow extends StatFigures {
  key: number;
  name: string;
  groupName?: string;
}

export interface StatPage extends Page<StatRow> {
  sum: StatRow;
  /** the ten largest by shipped V20 */
  top: StatRow[];
  from: string;
  to: string;
  /** the product filter's choices: the products carried under the other filters, largest V20 first */
  products?: ProductChoice[];
}

export interface ProductChoice {
  id: number;
  name: string;
  groupName: string;
  trips: number;
}

export type Only = '' | 'over' | 'openings' | 'timed';

export interface DrillQuery extends StatQuery {
  kind: StatKind;
  key?: number;
  all?: boolean;
  only?: Only;
}

export interface DrillTrip extends StatFigures {
  id: number;
  no: string;
  plate: string;
  groupName: string;
  salesName: string;
  /** "YYYY-MM-DD HH:mm:ss" (Asia/Shanghai) */
  closedAt: string | null;
}

export interface Drill extends Page<DrillTrip> {
  sum: StatFigures;
}

const PAGE: Record<StatKind, string> = {
  car: '/monitor-app/realTimeMoitoring/getVehicleTransportationStatisticsPage1',
  company: '/monitor-app/statistics/company/page',
  product: '/monitor-app/statistics/product/page',
};
const EXPORT: Record<StatKind, string> = {
  car: '/monitor-app/realTimeMoitoring/exportDataExcel',
  company: '/monitor-app/statistics/company/export',
  product: '/monitor-app/statistics/product/export',
};

export const statPage = (kind: StatKind, q: StatQuery) => post<StatPage>(PAGE[kind], q);
export const statExport = (kind: StatKind, q: Omit<StatQuery, 'pageNum' | 'pageSize'>): ExportRequest => ({
  url: EXPORT[kind],
  data: q,
  fallbackName: `${kind}-statistics.xlsx`,
});
export const statTrips = (q: DrillQuery) => post<Drill>('/monitor-app/statistics/trips', q);
