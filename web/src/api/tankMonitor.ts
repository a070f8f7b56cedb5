import { call, post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** One device of a compartment from the newest lock state. */
export interface TankDevice {
  kind: 'smallManholeCover' | 'manholeCover' | 'oilDischargeValve' | 'bottomValve';
  fitted: boolean;
  open: boolean;
  locked: boolean;
  fault: boolean;
}

/** A compartment with its newest reading (POST /monitor-app/realTimeMoitoring/tankMonitor). */
export interface TankCompartment {
  no: number;
  listed: boolean;
  /** tank product code 0–4; -1 when tankInfo does not list the compartment */
  product: number;
  productName: string;
  capacity: number;
  capacitySource: '' | 'table' | 'nominal';
  heightMm: number;
  hasReading: boolean;
  levelMm: number;
  volume: number;
  /** 1 strapping table, 2 probe */
  source: number;
  sourceText: string;
  v20: number;
  massKg: number;
  temperature: number;
  fillPct: number | null;
  devices: TankDevice[];
  coversOpen: boolean;
  valvesOpen: boolean;
  fault: boolean;
}

export interface TankCarView {
  carId: number;
  plate: string;
  groupName: string;
  online: boolean;
  code: number;
  time: string | null;
  levelTime: string | null;
  tankTime: string | null;
  seal: number;
  sealText: string;
  hasLock: boolean;
  hasProbes: boolean;
  compartments: TankCompartment[];
}

export const tankMonitor = (carId: number) => post<TankCarView>('/monitor-app/realTimeMoitoring/tankMonitor', { carId }, false);

export interface V20Query {
  vt: number | null;
  temperature: number | null;
  density20?: number;
  product: number | null;
}

export interface V20Result {
  vcf20: number;
  v20: number;
  massKg: number;
  density20: number;
  converted: boolean;
}

/** getVtV20: errors come back as the server's field-named message (shown by the caller). */
export const getVtV20 = (q: V20Query) => call<V20Result>({ method: 'POST', url: '/monitor-app/realTimeMoitoring/getVtV20', data: q }, false);

/** A row of the tankMonitor2VXE table: one compartment of one car. */
export interface TankRow {
  carId: number;
  plate: string;
  groupName: string;
  no: number;
  product: number;
  productName: string;
  capacity: number;
  hasReading: boolean;
  levelMm: number;
  volume: number;
  source: number;
  v20: number;
  temperature: number;
  fillPct: number | null;
  coversOpen: boolean;
  valvesOpen: boolean;
  fault: boolean;
  seal: number;
  sealText: string;
  time: string | null;
  online: boolean;
}

export interface TankRowFilters {
  groupId?: number;
  plate?: string;
  product?: number;
  fillMin?: number;
  fillMax?: number;
  openOnly?: boolean;
  onlineOnly?: boolean;
}

export const tankRowsPage = (q: PageQuery & TankRowFilters) => post<Page<TankRow>>('/monitor-app/tankMonitor2VXE/page', q);

export const tankRowsExport = (f: TankRowFilters): ExportRequest => ({
  url: '/monitor-app/tankMonitor2VXE/export',
  method: 'POST',
  data: f,
  fallbackName: 'tank-monitor.xlsx',
});
