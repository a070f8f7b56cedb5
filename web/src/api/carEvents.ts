import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * Car tank events (docs/API.md "Car tank events", DECISIONS D36): what the level detector found per
 * compartment, and every cover and valve change (AllDataValveStates).
 */

export const EVENT_KINDS = ['load', 'unload', 'dropMoving', 'dropOutside', 'theft', 'sensorStuck', 'sensorJump', 'sensorMissing', 'coverOpen', 'valveOpen'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface CarEventQuery extends PageQuery {
  groupId?: number;
  carId?: number;
  kind?: EventKind;
  compartment?: number;
  /** 'YYYY-MM-DD HH:mm:ss' */
  startTime?: string;
  endTime?: string;
}

export interface CarEvent {
  id: number;
  carId: number;
  plate: string;
  groupName: string;
  compartment: number;
  kind: EventKind;
  kindName: string;
  device: number;
  deviceName: string;
  start: string;
  /** The start in Unix ms (the trend page's `at`). */
  startMs: number;
  end: string | null;
  lng: number;
  lat: number;
  stationId: number;
  stationName: string;
  before: number;
  after: number;
  beforeV20: number;
  afterV20: number;
  change: number;
  changeV20: number;
  detail: string;
}

export interface ValveQuery extends PageQuery {
  groupId?: number;
  carId?: number;
  compartment?: number;
  deviceKind?: number;
  startTime?: string;
  endTime?: string;
}

export interface ValveChange {
  carId: number;
  plate: string;
  groupName: string;
  time: string;
  compartment: number;
  deviceKind: number;
  deviceName: string;
  prevState: number;
  state: number;
  prevText: string;
  stateText: string;
  lng: number;
  lat: number;
  stationId: number;
  stationName: string;
}

export const carEventPage = (q: CarEventQuery) => post<Page<CarEvent>>('/monitor-app/carEventRecord/page', q);
export const carEventExport = (filters: object): ExportRequest => ({ url: '/monitor-app/carEventRecord/export', method: 'POST', data: filters });
export const valveStatePage = (q: ValveQuery) => post<Page<ValveChange>>('/base-info-app/AllDataValveStates/getAllDataValveStatesPage', q);
export const valveStateExport = (filters: object): ExportRequest => ({ url: '/base-info-app/AllDataValveStates/export', method: 'POST', data: filters });
