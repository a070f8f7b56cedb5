import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * Lead seals (docs/API.md "Lead seals", DECISIONS D53): the seals the load records applied per
 * compartment, how each ended, and the incidents. Times are 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai) or
 * null; coordinates are degrees × 10⁶.
 */

/** Seal states (seal.State*). */
export const SEAL_STATES = [1, 2, 3] as const;
/** Incident kinds (seal.Incident*): number reused, broken away, trip without seals, number mismatch. */
export const INCIDENT_KINDS = [1, 2, 3, 4] as const;

export interface SealQuery extends PageQuery {
  startTime?: string;
  endTime?: string;
  groupId?: number;
  carId?: number;
  sealNo?: string;
  waybillNo?: string;
  state?: number;
  kind?: number;
}
export type SealFilters = Omit<SealQuery, 'pageNum' | 'pageSize'>;

export interface SealRow {
  id: number;
  sealNo: string;
  carId: number;
  plate: string;
  groupName: string;
  compartment: number;
  waybillId: number;
  waybillNo: string;
  depotId: number;
  depotName: string;
  appliedAt: string | null;
  appliedBy: string;
  state: number;
  brokenAt: string | null;
  brokenStationId: number;
  brokenStationName: string;
  brokenLat: number;
  brokenLon: number;
  incidents: number;
}

export interface SealTotals {
  total: number;
  applied: number;
  brokenAtDest: number;
  brokenAway: number;
}

export interface IncidentRow {
  id: number;
  kind: number;
  t: string | null;
  carId: number;
  plate: string;
  groupName: string;
  waybillId: number;
  waybillNo: string;
  sealId: number;
  compartment: number;
  sealNo: string;
  stationId: number;
  stationName: string;
  lat: number;
  lon: number;
  detail: string;
  detailText: string;
}

export interface KindTotals {
  total: number;
  reused: number;
  brokenAway: number;
  noSeals: number;
  mismatch: number;
}

export const sealPage = (q: SealQuery) => post<Page<SealRow> & { totals: SealTotals }>('/monitor-app/leadSealRecord/page', q);
export const incidentPage = (q: SealQuery) => post<Page<IncidentRow> & { totals: KindTotals }>('/monitor-app/leadSealRecord/incidents', q);

export const sealExport = (q: SealFilters): ExportRequest => ({ url: '/monitor-app/leadSealRecord/export', method: 'POST', data: q, fallbackName: 'lead-seals.xlsx' });
export const incidentExport = (q: SealFilters): ExportRequest => ({
  url: '/monitor-app/leadSealRecord/exportIncidents',
  method: 'POST',
  data: q,
  fallbackName: 'lead-seal-incidents.xlsx',
});
