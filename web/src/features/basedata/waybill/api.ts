import { call, get, post } from '../../../api/client';
import type { Page, PageQuery } from '../../../api/types';

/** Waybills (docs/API.md "Waybills"). Times are Unix ms, volumes litres, states by name. */
export const P = '/base-info-app/waybill/';

export const STATES = ['PLANNED', 'DISPATCHED', 'LOADING', 'LOADED', 'SEALED', 'IN_TRANSIT', 'ARRIVED', 'UNSEALED', 'UNLOADING', 'RECEIVED', 'CLOSED', 'DIFF_FLAGGED', 'CANCELLED'] as const;
export type WaybillState = (typeof STATES)[number];
/** States a dispatcher may cancel from (DISPATCHED…SEALED). */
export const CANCELLABLE: readonly string[] = ['DISPATCHED', 'LOADING', 'LOADED', 'SEALED'];

export interface Destination {
  seq: number;
  stationId: number;
  stationName: string;
  state: number;
  arriveAt: number;
  receivedV20: number;
}

export interface Compartment {
  no: number;
  productId: number;
  productName?: string;
  plannedL: number;
  destSeq: number;
}

export interface Waybill {
  id: number;
  no: string;
  state: WaybillState;
  stateAt: number;
  flagged: boolean;
  carId: number;
  plate: string;
  groupId: number;
  groupName: string;
  salesGroupId: number;
  salesGroupName: string;
  customerId: number;
  customerName: string;
  depotId: number;
  depotName: string;
  destinations: Destination[];
  plannedL: number;
  driverName: string;
  driverPhone: string;
  escortName: string;
  escortPhone: string;
  plannedLoadAt: number;
  plannedArriveAt: number;
  dispatchedAt: number;
  departAt: number;
  closedAt: number;
  shippedV20: number;
  receivedV20: number;
  lossL: number;
  lossRatePct: number;
  allowedPct: number;
  planId: number;
  remark: string;
  createdAt: number;
}

export interface WaybillDetail extends Waybill {
  compartments: Compartment[];
  cancelReason: string;
}

export interface WaybillFilters {
  no?: string;
  plate?: string;
  carId?: number;
  state?: string;
  depotId?: number;
  stationId?: number;
  startTime?: string;
  endTime?: string;
}
export type WaybillQuery = PageQuery & WaybillFilters;

export interface WaybillInput {
  id?: number;
  carId: number;
  depotId: number;
  stationIds: number[];
  customerId?: number;
  salesGroupId?: number;
  plannedLoadAt: number;
  plannedArriveAt: number;
  driverName?: string;
  driverPhone?: string;
  escortName?: string;
  escortPhone?: string;
  remark?: string;
  compartments: Compartment[];
}

export interface Option {
  id: number;
  name: string;
  groupId: number;
  compartments?: number;
  driverName?: string;
  driverPhone?: string;
}
export interface FormOptions {
  cars: Option[];
  depots: Option[];
  stations: Option[];
  products: Option[];
  customers: Option[];
  sales: { id: number; name: string }[];
}

export interface ImportRow {
  row: number;
  plate: string;
  depot: string;
  destinations: string;
  plannedL: number;
  error: string;
}
export interface ImportResult {
  rows: ImportRow[];
  errors: number;
  created: number;
  nos: string[];
}

/** The three views: the carrier's working list, the sales company's view, the archive. */
export type WaybillView = 'carrier' | 'sales' | 'archive';
export const PAGE_URL: Record<WaybillView, string> = { carrier: P + 'page', sales: P + 'pageBySales', archive: P + 'archivePage' };
export const EXPORT_URL: Record<WaybillView, string> = { carrier: P + 'export', sales: P + 'exportBySales', archive: P + 'exportArchive' };

export const pageWaybills = (view: WaybillView, q: WaybillQuery) => post<Page<Waybill>>(PAGE_URL[view], q);
export const stateCounts = (q: WaybillFilters) => post<Record<string, number>>(P + 'stateCounts', q, false);
export const waybillDetail = (id: number) => get<WaybillDetail>(P + 'detail', { id });
export const formOptions = () => get<FormOptions>(P + 'options');
export const addWaybill = (body: WaybillInput) => post<WaybillDetail>(P + 'add', body);
export const updateWaybill = (body: WaybillInput) => post<WaybillDetail>(P + 'update', body);
export const deleteWaybill = (id: number) => post<null>(P + 'delete', { id }, false);
export const dispatchWaybill = (id: number) => post<WaybillDetail>(P + 'dispatch', { id });
export const cancelWaybill = (id: number, reason: string) => post<WaybillDetail>(P + 'cancel', { id, reason });
export const importWaybills = (file: Blob, save: boolean) =>
  call<ImportResult>({ method: 'POST', url: P + (save ? 'import' : 'importPreview'), data: file, headers: { 'Content-Type': 'application/octet-stream' } });
export const TEMPLATE_URL = P + 'template';
