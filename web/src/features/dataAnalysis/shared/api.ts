import { post } from '../../../api/client';
import { exportFile } from '../../../api/export';
import type { Page } from '../../../api/types';

/** The analysis calls (docs/API.md "Transport analysis"): figures from the daily rollups (D57). */
const BASE = '/monitor-app/outToArrival/';

export interface Figures {
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
  /** -1: no trip with a known out-to-arrival time. */
  avgOutToArrivalMin: number;
  /** null: not told apart per product or route. */
  tampering: number | null;
  sealIncidents: number | null;
}

export interface Spread {
  avgMin: number;
  minMin: number;
  maxMin: number;
  stdMin: number;
}

export interface Row extends Figures {
  name: string;
  depotId?: number;
  depotName?: string;
  stationId?: number;
  stationName?: string;
  spread?: Spread;
}

export interface Period {
  from: number;
  to: number;
}

export interface Breakdown {
  period: Period;
  totals: Figures;
  rows: Row[];
}

export interface Point extends Figures, Period {}

export interface Series {
  period: Period;
  totals: Figures;
  points: Point[];
}

export type Changes = Record<string, number | null>;

export interface Comparison {
  current: Series;
  lastMonth: Series;
  lastYear: Series;
  mom: Changes;
  yoy: Changes;
}

export interface TripRow {
  id: number;
  no: string;
  plate: string;
  groupName: string;
  depotName: string;
  stationName: string;
  closedAt: string;
  shippedV20: number;
  shippedT: number;
  lossL: number;
  lossRatePct: number;
  allowedPct: number;
  km: number;
  openings: number;
  tonKm: number;
  outToArrivalMin: number;
  over: boolean;
}

export interface Option {
  productId?: number;
  depotId?: number;
  stationId?: number;
  name: string;
  trips: number;
}

export type Dim = 'company' | 'product' | 'route';
export type Grain = 'day' | 'week' | 'month';
export type Only = '' | 'over' | 'openings' | 'timed';

/** What every call takes: the period and the filters. */
export interface Query {
  start: string;
  end: string;
  groupId?: number;
  companyId?: number;
  productId?: number;
  depotId?: number;
  stationId?: number;
  dim?: Dim;
  grain?: Grain;
  only?: Only;
}

export const breakdown = (q: Query) => post<Breakdown>(BASE + 'selectTransportProcessStatistics', q);
export const top5 = (q: Query) => post<TripRow[]>(BASE + 'v20Top5', q);
export const compare = (q: Query) => post<Comparison>(BASE + 'selectTonKilometers', q);
export const options = (q: Query) => post<{ products: Option[]; routes: Option[] }>(BASE + 'options', q);
export const trips = (q: Query & { pageNum: number; pageSize: number; sortField?: string; sortOrder?: string }) => post<Page<TripRow>>(BASE + 'trips', q);
export const exportBreakdown = (q: Query) => exportFile({ url: BASE + 'export', data: q, fallbackName: 'transport-analysis.xlsx' });
export const exportTrend = (q: Query) => exportFile({ url: BASE + 'exportTrend', data: q, fallbackName: 'transport-trend.xlsx' });
