import { call, post } from './client';
import type { Page } from './types';

/** Real-time monitoring (docs/API.md "Real-time monitoring"): monitor-app/realTimeMoitoring. */
const P = '/monitor-app/realTimeMoitoring';

/** lng/lat: WGS-84 degrees, or "" when the car has no fix. */
export type LiveCoord = number | '';

/** Vehicle counts keyed by code (8 total, 4 in transit, 5 resting, 7 offline, 3 abnormal): carCount in ./vehicleCounts. */
export type { Counts as CarCounts } from '../lib/cockpit';

/** A car on the map (carExhibition item; also the live stream's snapshot/delta item). */
export interface MapCar {
  carId: number;
  plate: string;
  lng: LiveCoord;
  lat: LiveCoord;
  /** km/h */
  speed: number;
  /** 0–359, 0 = north */
  direction: number;
  /** 4 in transit, 5 resting, 7 offline */
  code: number;
  abnormal: boolean;
  /** device time, null when the car never reported */
  time: string | null;
}

/** findCars list item. */
export interface LiveCar extends MapCar {
  groupId: number;
  groupName: string;
  driverName: string;
  driverPhone: string;
  terminalPhone: string;
  online: boolean;
  moving: boolean;
  received: string | null;
  alarm: number;
  status: number;
  load: 'empty' | 'half' | 'full' | '';
  lockState: string;
  /** 0 no seal, 1 sealed, 2 broken, 3 unsealed */
  seal: number;
}

export type DeviceKind = 'smallManholeCover' | 'manholeCover' | 'oilDischargeValve' | 'bottomValve';

export interface CompartmentDevice {
  kind: DeviceKind;
  kindText: string;
  installed: boolean;
  open: boolean;
  locked: boolean;
  fault: boolean;
}

export interface CompartmentState {
  houseNumber: number;
  devices: CompartmentDevice[];
}

export interface LevelReading {
  compartment: number;
  levelMm: number;
  volumeL: number;
  temperature: number;
}

export interface CarDetails extends LiveCar {
  codeText: string;
  loadText: string;
  sealText: string;
  acc: boolean;
  positioned: boolean;
  mileage: number | null;
  compartments: number;
  smallManholeCoverNumber: number;
  manholeCoverNumber: number;
  oilDischargeValveNumber: number;
  bottomValveNumber: number;
  speedLimit: number;
  tankTime: string | null;
  compartmentStates: CompartmentState[];
  levelTime: string | null;
  levels: LevelReading[];
  alarms: { bit: number; name: string }[];
  abnormalReasons: string[];
}

export interface FindCarsQuery {
  groupId?: number;
  code?: number;
  carNumber?: string;
}

/** Background calls: no blocking spinner, failures handled by the caller (no warning toast). */
const quietGet = <T>(url: string, params?: Record<string, unknown>) => call<T>({ method: 'GET', url, params, silent: true }, false);

export const findCars = (q: FindCarsQuery & { pageNum: number; pageSize: number }) => post<Page<LiveCar>>(`${P}/findCars`, q);
export const findCarsId = (q: FindCarsQuery) =>
  call<number[]>({ method: 'POST', url: `${P}/findCarsId`, data: q, silent: true }, false);
/** Every car under `groupId` (default: the caller's group), or the given ids (at most 10 000). */
export const carExhibition = (q: { carIds?: number[]; groupId?: number } = {}) =>
  quietGet<MapCar[]>(`${P}/carExhibition`, q.carIds ? { carIds: q.carIds.join(',') } : q.groupId ? { groupId: q.groupId } : undefined);
export const carDetails = (carId: number) => quietGet<CarDetails>(`${P}/carDetails`, { carId });
