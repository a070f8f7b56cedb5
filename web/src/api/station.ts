import { get, post } from './client';
import type { Page, PageQuery } from './types';

/** Station registry and suspected stations (docs/API.md "Stations and suspected stations"). */
export const STATION_TYPES = ['yk', 'jyz', 'wlcc', 'ztcc', 'wxd', 'zqgd', 'tjjz', 'cng'] as const;
export type StationType = (typeof STATION_TYPES)[number];
/** The spec's oil depot code: its own map icon. */
export const DEPOT = 'yk';

export interface StationFence {
  /** 1 polygon, 2 circle. */
  fenceType: number;
  fencePoints: string;
  fenceCenter: string;
  /** Circle radius in metres (spelt so, spec §3). */
  raduis: number;
}

export interface Station extends StationFence {
  id: number;
  stationId: number;
  groupId: number;
  groupName: string;
  stationName: string;
  stationType: string;
  /** The fence's centre, WGS-84. */
  lng: number;
  lat: number;
  address: string;
  contact: string;
  phone: string;
  remark: string;
  createdAt: string;
  updatedAt: string;
}

/** viewStation: what the map draws. */
export interface MapStation extends StationFence {
  id: number;
  stationName: string;
  stationType: string;
  lng: number;
  lat: number;
  address: string;
  groupName: string;
}

export interface StationInput extends StationFence {
  id?: number;
  groupId?: number;
  stationName: string;
  stationType: string;
  address?: string;
  contact?: string;
  phone?: string;
  remark?: string;
  /** Promote this suspected station (removed when the station is saved). */
  suspectId?: number;
}

export interface StationQuery extends PageQuery {
  stationName?: string;
  stationType?: string;
  groupId?: number;
}

export interface Suspect {
  id: number;
  groupId: number;
  groupName: string;
  lng: number;
  lat: number;
  count: number;
  carCount: number;
  cars: string[];
  firstTime: string;
  lastTime: string;
  address: string;
}

export interface SuspectQuery extends PageQuery {
  groupId?: number;
  minCount?: number;
}

const P = '/base-info-app/station/';
export const pageStations = (q: StationQuery) => post<Page<Station>>(P + 'page', q);
export const addStation = (body: StationInput) => post<Station>(P + 'add', body);
export const updateStation = (body: StationInput & { id: number }) => post<Station>(P + 'update', body);
/** No warning here: ConfirmDelete shows the failure. */
export const deleteStation = (id: number) => post<null>(P + 'delete', { id }, false);
export const viewStation = (id: number) => get<Station>(P + 'view', { id });
export const viewStations = () => get<MapStation[]>(P + 'viewStation');

export const pageSuspects = (q: SuspectQuery) => post<Page<Suspect>>('/base-info-app/suspectedStation/page', q);
export const dismissSuspect = (id: number) => post<null>('/base-info-app/suspectedStation/dismiss', { id }, false);
