import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * Station tanks (docs/API.md "Station tanks and gauges"): the newest state of each ground tank with
 * its gauge, the gauges' connection states, and the station tank events (tankEventRecord).
 */

export type GaugeState = 'online' | 'offline' | 'garbage' | 'none';

export interface GroundStatus {
  tankId: number;
  stationId: number;
  stationName: string;
  groupId: number;
  tankNo: number;
  name: string;
  product: number;
  capacity: number;
  /** Unix ms of the newest reading; 0 none yet */
  at: number;
  volume: number;
  v20: number;
  fillPct: number;
  height: number;
  water: number;
  temp: number;
  /** −1 unknown */
  daysOfCover: number;
  gaugeState: GaugeState;
  lowStock: boolean;
  lowCover: boolean;
  gauge: string;
  gaugeTank: number;
}

export interface GaugeView {
  addr: string;
  state: Exclude<GaugeState, 'none'>;
  /** Unix ms; 0 not polled yet */
  since: number;
  lastError: string;
  lastOk: number;
  stations: string[];
  tanks: { tankId: number; stationName: string; tankNo: number; name: string }[];
}

export const TANK_EVENT_KINDS = ['delivery', 'lowStock', 'lowCover', 'water', 'gaugeAlarm', 'leakTest', 'leakFall', 'gaugeOffline'] as const;
export type TankEventKind = (typeof TANK_EVENT_KINDS)[number];

export interface TankEventDetail {
  code?: number;
  alarm?: string;
  waterMm?: number;
  days?: number;
  fillPct?: number;
  rateLph?: number;
  hours?: number;
  state?: string;
  error?: string;
  received?: number;
  gauge?: string;
}

export interface TankEvent {
  id: number;
  tankId: number;
  stationId: number;
  stationName: string;
  tankNo: number;
  tankName: string;
  product: number;
  kind: TankEventKind;
  /** Unix ms */
  startAt: number;
  /** Unix ms; null while it goes on */
  endAt: number | null;
  beforeL: number;
  afterL: number;
  beforeV20: number;
  afterV20: number;
  detail: TankEventDetail;
}

export interface TankEventFilters {
  groupId?: number;
  stationId?: number;
  tankId?: number;
  kind?: TankEventKind;
  startTime?: string;
  endTime?: string;
}

export const groundTankStatus = (q: { groupId?: number; stationId?: number } = {}) => post<GroundStatus[]>('/monitor-app/groundTank/status', q);
export const groundGauges = (q: { groupId?: number; stationId?: number } = {}) => post<GaugeView[]>('/monitor-app/groundTank/gauges', q);
export const tankEventPage = (q: PageQuery & TankEventFilters) => post<Page<TankEvent>>('/monitor-app/tankEventRecord/page', q);
export const tankEventExport = (filters: TankEventFilters): ExportRequest => ({ url: '/monitor-app/tankEventRecord/export', method: 'POST', data: filters });
