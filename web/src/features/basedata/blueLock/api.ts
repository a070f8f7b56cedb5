import { call, post } from '../../../api/client';
import type { ExportRequest } from '../../../api/export';
import type { Page, PageQuery } from '../../../api/types';

/** Electronic locks, their bindings and the car blacklist (docs/API.md "Electronic locks and the car blacklist"). */

export const KINDS = [1, 2] as const; // 1 BLE one-shot, 2 4G remote
export const STATES = [1, 2, 3, 4] as const; // in stock, bound, faulty, retired
/** States a user may set on a lock ("bound" comes from binding). */
export const SETTABLE_STATES = [1, 3, 4] as const;
export const DEVICES = [0, 1, 2, 3] as const; // small manhole cover, manhole cover, discharge valve, bottom valve
export const BLACK_STATES = ['active', 'scheduled', 'expired', 'lifted'] as const;
export type BlackState = (typeof BLACK_STATES)[number];

export interface Lock {
  id: number;
  serial: string;
  kind: number;
  model: string;
  firmware: string;
  /** null: never reported. */
  batteryPct: number | null;
  state: number;
  /** null: no event yet. */
  online: boolean | null;
  lastEventAt: string;
  carId: number | null;
  plate: string;
  compartment: number;
  device: number;
  carCompartments?: number;
  groupId: number;
  groupName: string;
  remark: string;
  updatedAt: string;
}

export interface LockQuery extends PageQuery {
  serial?: string;
  plate?: string;
  kind?: number;
  state?: number;
  bound?: boolean;
  groupId?: number;
}

export interface LockInput {
  id?: number;
  groupId?: number;
  serial: string;
  kind: number;
  model: string;
  firmware: string;
  state?: number;
  remark: string;
}

export interface BindInput {
  lockId: number;
  carId: number;
  compartment: number;
  device: number;
  move?: boolean;
  reason?: string;
}

export interface BindRecord {
  id: number;
  t: string;
  lockId: number;
  serial: string;
  kind: number;
  carId: number;
  plate: string;
  compartment: number;
  device: number;
  action: number;
  userName: string;
  reason: string;
  groupName: string;
}

export interface BindQuery extends PageQuery {
  serial?: string;
  plate?: string;
  action?: number;
  groupId?: number;
  startTime?: string;
  endTime?: string;
}

export interface BlackEntry {
  id: number;
  carId: number;
  plate: string;
  groupId: number;
  groupName: string;
  reason: string;
  startAt: string;
  /** '' = until lifted. */
  endAt: string;
  state: BlackState;
  decidedBy: string;
  createdAt: string;
  liftedAt: string;
  liftedBy: string;
  liftReason: string;
}

export interface BlackQuery extends PageQuery {
  plate?: string;
  state?: BlackState;
  groupId?: number;
}

export interface BlackInput {
  carId: number;
  reason: string;
  startAt?: string;
  endAt?: string;
}

export interface SheetRow {
  row: number;
  serial: string;
  kind: number;
  model: string;
  firmware: string;
  group: string;
  remark: string;
}

export interface ImportResult {
  rows: SheetRow[];
  errors: { row: number; message: string }[];
  saved: number;
}

const LOCK = '/base-info-app/blueLock/';
const BIND = '/base-info-app/blueLockBindRecord/';
const BLACK = '/base-info-app/carBlacklist/';
type Filters<Q> = Omit<Q, 'pageNum' | 'pageSize'>;

export const lockPage = (q: LockQuery) => post<Page<Lock>>(LOCK + 'page', q);
export const lockSave = (v: LockInput) => post<Lock>(LOCK + 'save', v);
export const lockDelete = (id: number) => post<null>(LOCK + 'delete', { id }, false);
export const lockBind = (v: BindInput) => post<Lock>(LOCK + 'bind', v);
export const lockUnbind = (lockId: number, reason: string) => post<Lock>(LOCK + 'unbind', { lockId, reason });
export const lockExport = (q: Filters<LockQuery>): ExportRequest => ({ url: LOCK + 'export', data: q });
const upload = (url: string, file: Blob) => call<ImportResult>({ method: 'POST', url, data: file, headers: { 'Content-Type': 'application/octet-stream' } });
export const lockImportPreview = (file: Blob) => upload(LOCK + 'importPreview', file);
export const lockImport = (file: Blob) => upload(LOCK + 'import', file);

export const bindPage = (q: BindQuery) => post<Page<BindRecord>>(BIND + 'page', q);
export const bindExport = (q: Filters<BindQuery>): ExportRequest => ({ url: BIND + 'export', data: q });

export const blackPage = (q: BlackQuery) => post<Page<BlackEntry>>(BLACK + 'page', q);
export const blackAdd = (v: BlackInput) => post<BlackEntry>(BLACK + 'add', v);
export const blackLift = (id: number, reason: string) => post<BlackEntry>(BLACK + 'lift', { id, reason });
export const blackExport = (q: Filters<BlackQuery>): ExportRequest => ({ url: BLACK + 'export', data: q });

/** The text of a battery level ('—' when the lock never reported one). */
export const batteryText = (v: number | null) => (v == null ? '—' : `${v}%`);

/** The colour of a lock state's tag. */
export const stateColour = (s: number) => ({ 1: 'default', 2: 'blue', 3: 'red', 4: 'default' })[s] ?? 'default';

/** The colour of a blacklist state's tag. */
export const blackColour = (s: BlackState) => ({ active: 'red', scheduled: 'orange', expired: 'default', lifted: 'green' })[s];
