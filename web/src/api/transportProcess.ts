import { get, post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/**
 * The transport process views (docs/API.md "Transport process views", DECISIONS D46): the trips list,
 * one trip's timeline (also historyWaybill's) and the finished trips with all their figures. Times are
 * Unix ms, volumes litres, states by name.
 */

/** The main chain of states in order (DOMAIN.md §1); DIFF_FLAGGED and CANCELLED are side states. */
export const MAIN_STATES = ['PLANNED', 'DISPATCHED', 'LOADING', 'LOADED', 'SEALED', 'IN_TRANSIT', 'ARRIVED', 'UNSEALED', 'UNLOADING', 'RECEIVED', 'CLOSED'] as const;
export const STATES = [...MAIN_STATES, 'DIFF_FLAGGED', 'CANCELLED'] as const;
export type WaybillState = (typeof STATES)[number];

export interface ProcessQuery extends PageQuery {
  /** 'YYYY-MM-DD HH:mm:ss' or Unix ms */
  start?: string | number;
  end?: string | number;
  board?: boolean;
  groupId?: number;
  carId?: number;
  depotId?: number;
  stationId?: number;
  state?: WaybillState;
  states?: WaybillState[];
  no?: string;
  /** record only */
  over?: 'over' | 'within';
}

export interface DestBrief {
  seq: number;
  stationId: number;
  stationName: string;
  state: number;
  arriveAt: number;
  unsealedAt: number;
  unloadStartAt: number;
  unloadEndAt: number;
  receivedAt: number;
  receivedV20: number;
  receivedSource: number;
}

export interface Trip {
  id: number;
  no: string;
  state: WaybillState;
  stateAt: number;
  flagged: boolean;
  leftUnsealed: boolean;
  groupId: number;
  groupName: string;
  salesGroupId: number;
  salesGroupName: string;
  carId: number;
  plate: string;
  customerId: number;
  customerName: string;
  depotId: number;
  depotName: string;
  driverName: string;
  driverPhone: string;
  escortName: string;
  escortPhone: string;
  plannedLoadAt: number;
  plannedArriveAt: number;
  dispatchedAt: number;
  loadStartAt: number;
  loadedAt: number;
  sealedAt: number;
  departAt: number;
  arriveAt: number;
  unsealedAt: number;
  unloadStartAt: number;
  receivedAt: number;
  closedAt: number;
  shippedV20: number;
  shippedMassT: number;
  receivedV20: number;
  receivedSource: number;
  lossL: number;
  lossRatePct: number;
  allowedPct: number;
  over: boolean;
  loadedKm: number;
  tonKm: number;
  /** -1: not known */
  outToArrivalMin: number;
  late: boolean;
  remark: string;
  createdAt: number;
  destinations: DestBrief[];
}

export interface StepView {
  id: number;
  from: WaybillState;
  to: WaybillState;
  /** the evidence marked the trip without moving it */
  mark: boolean;
  evidence: number;
  cause: number;
  userId: number;
  userName: string;
  t: number;
  recordedAt: number;
  destSeq: number;
  compartment: number;
  stationId: number;
  stationName: string;
  lat: number;
  lon: number;
  address: string;
  volumeL: number;
  reason: string;
  detail: string;
}

export interface LoadItem {
  compartment: number;
  productName: string;
  vtL: number;
  tempC: number;
  density20: number;
  vcf20: number;
  v20L: number;
  massT: number;
  sealNo: string;
}

export interface TripDetail {
  waybill: Trip;
  destinations: DestBrief[];
  compartments: { no: number; productId: number; productName: string; plannedL: number; destSeq: number }[];
  load: { id: number; ticketNo: string; loadedAt: number; source: number; remark: string; items: LoadItem[] } | null;
  steps: StepView[];
  diffs: { id: number; kind: number; status: number; t: number; lossL: number; lossRatePct: number; allowedPct: number; evidence: string; reviewReason: string }[];
}

export interface Totals {
  trips: number;
  shippedV20: number;
  receivedV20: number;
  lossL: number;
  lossRatePct: number;
  overCount: number;
  loadedKm: number;
  tonKm: number;
  avgOutToArrivalMin: number;
  timedTrips: number;
}

export type RecordPage = Page<Trip> & { totals: Totals };

export const processPage = (q: ProcessQuery) => post<Page<Trip>>('/monitor-app/transportProcess/page', q);
export const processDetail = (waybillId: number) => get<TripDetail>('/monitor-app/transportProcess/detail', { waybillId });
export const recordPage = (q: ProcessQuery) => post<RecordPage>('/monitor-app/transportRecord/page', q);
export const recordExport = (q: Omit<ProcessQuery, 'pageNum' | 'pageSize'>): ExportRequest => ({
  url: '/monitor-app/transportRecord/export',
  method: 'POST',
  data: q,
  fallbackName: 'transport-record.xlsx',
});

/** 04-15-01: an operator's correction with a reason (wb-process, H4). */
export const correctStep = (body: { waybillId: number; state: WaybillState; reason: string }) => post<unknown>('/monitor-app/transportProcess/correct', body);
/** 04-15-02: an entered received volume (wb-process, H4). */
export const enterReceived = (body: { waybillId: number; destSeq: number; receivedV20: number; reason: string }) =>
  post<unknown>('/monitor-app/transportProcess/receive', body);
