import { get, post } from '../../../api/client';
import type { Page } from '../../../api/types';

/** historyWaybill: the finished trips (findWaybillHistory, 04-43) and a trip's steps (transportProcess/detail). Times Unix ms. */

export type FinishedState = 'RECEIVED' | 'CLOSED' | 'DIFF_FLAGGED' | 'CANCELLED';
export const FINISHED_STATES: FinishedState[] = ['RECEIVED', 'CLOSED', 'DIFF_FLAGGED', 'CANCELLED'];

export interface HistoryTrip {
  waybillId: number;
  waybillNo: string;
  carId: number;
  plate: string;
  state: FinishedState;
  depotName: string;
  destinations: string;
  createdAt: number;
  dispatchedAt: number;
  departAt: number;
  arriveAt: number;
  receivedAt: number;
  closedAt: number;
  stateAt: number;
  startAt: number;
  endAt: number;
}

export interface HistoryQuery {
  pageNum: number;
  pageSize: number;
  startTime?: string;
  endTime?: string;
  carNumber?: string;
  waybillNo?: string;
  state?: string;
}

/** A stored step of the trip (transportProcess/detail `steps`). */
export interface TripStep {
  id: number;
  from: string;
  to: string;
  mark?: boolean;
  evidence: number;
  cause: number;
  userName?: string;
  t: number;
  stationName?: string;
  lat: number;
  lon: number;
  volumeL?: number;
  reason?: string;
}

export interface TripDetail {
  steps: TripStep[];
}

export const findWaybillHistory = (q: HistoryQuery) => post<Page<HistoryTrip>>('/monitor-app/realTimeMoitoring/findWaybillHistory', q);
export const tripDetail = (waybillId: number) => get<TripDetail>('/monitor-app/transportProcess/detail', { waybillId }, false);
