import { get, post } from '../../../api/client';
import type { LiveCoord } from '../../../api/monitor';

/** The waybill map (docs/API.md "The waybill map"). Times are Unix ms; distances km. */

export type ActiveState = 'DISPATCHED' | 'LOADING' | 'LOADED' | 'SEALED' | 'IN_TRANSIT' | 'ARRIVED' | 'UNSEALED' | 'UNLOADING';
export const ACTIVE_STATES: ActiveState[] = ['DISPATCHED', 'LOADING', 'LOADED', 'SEALED', 'IN_TRANSIT', 'ARRIVED', 'UNSEALED', 'UNLOADING'];

export interface WaybillCar {
  carId: number;
  plate: string;
  lng: LiveCoord;
  lat: LiveCoord;
  speed: number;
  direction: number;
  code: number;
  time: number;
  waybillId: number;
  waybillNo: string;
  state: ActiveState;
  stateAt: number;
  flagged: boolean;
  depotName: string;
  dispatchedAt: number;
  departAt: number;
  plannedArriveAt: number;
  nextSeq: number;
  nextName: string;
  nextKm: number | null;
  finalKm: number | null;
  etaAt: number | null;
  finalEtaAt: number | null;
  late: boolean;
  avgKmh: number;
  speedSource: 'trip' | 'default';
  movingKm: number;
  movingMin: number;
}

export interface FindResult {
  list: WaybillCar[];
  serverTime: number;
  defaultKmh: number;
  movingKmh: number;
}

export interface RouteStop {
  seq: number;
  stationId: number;
  name: string;
  lng: number;
  lat: number;
  state: number;
  arriveAt: number;
}

export interface WaybillExhibition extends WaybillCar {
  depot: RouteStop;
  destinations: RouteStop[];
  track: { t: number; lng: number; lat: number; speed: number }[];
  truncated: boolean;
  serverTime: number;
}

const P = '/monitor-app/realTimeMoitoring';

export const findCarsByWaybill = (q: { state?: string; carNumber?: string; waybillNo?: string; groupId?: number } = {}) =>
  post<FindResult>(`${P}/findCarsByWaybill`, q, false);
export const carExhibitionByWaybill = (carId: number) => get<WaybillExhibition>(`${P}/carExhibitionByWaybill`, { carId }, false);
