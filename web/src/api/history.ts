import { call, get, post } from './client';
import type { ExportRequest } from './export';
import type { LevelReading } from './monitor';
import type { Page, PageQuery } from './types';

/**
 * History pages (docs/API.md "History: raw data and the raw store", "State changes", "Offline record"):
 * raw frames, the raw-store tables, derived state changes and offline periods. Every call is about one
 * vehicle (`carId`) or terminal (`phone`) and a time range, except the offline record (a group).
 */

export type { LevelReading };

export interface HistoryTarget {
  carId?: number;
  phone?: string;
  /** 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai */
  startTime: string;
  endTime: string;
}

/** A number in degrees, or "" when there is no position. */
export type Coord = number | '';

export interface DecodedHeader {
  msgId: string;
  version: string;
  phone: string;
  serial: number;
  bodyLength: number;
  encryption: number;
  packet?: string;
}

export interface DecodedDevice {
  name: string;
  installed: boolean;
  open: boolean;
  locked: boolean;
  fault: boolean;
}

export interface DecodedTank {
  compartments?: { no: number; devices: DecodedDevice[] }[];
  lockState?: string;
  seal?: number;
  sealName?: string;
  levels?: LevelReading[];
  help?: { type: number; name: string; requestId: number };
  /** items 0xE6, in the order sent, named in the caller's language */
  locks?: DecodedLock[];
}

/** One lock event (item 0xE6, docs/PROTOCOL.md §2). */
export interface DecodedLock {
  serial: string;
  event: number;
  eventName: string;
  method: number;
  methodName: string;
  compartment: number;
  device: number;
  deviceName: string;
  /** null when the lock did not say */
  battery: number | null;
  /** the lock's own time */
  time: string;
}

export interface DecodedItem {
  id: string;
  name: string;
  value?: unknown;
  hex: string;
}

export interface DecodedLocation {
  time: string;
  lat: number;
  lng: number;
  altitude: number;
  speed: number;
  direction: number;
  alarm: string;
  alarms: string[];
  status: string;
  states: string[];
  load: string;
  items: DecodedItem[];
  tank?: DecodedTank;
  /** the tank items dropped as malformed; tank holds the others */
  tankError?: string;
  /** the last item, cut short by the terminal and dropped */
  cut?: string;
}

export interface DecodedFrame {
  header?: DecodedHeader;
  /** A location, {type, blind, items}, {serial, location}, pass-through {type, hex, tank?}, other fields, or {hex}. */
  body?: Record<string, unknown>;
  error?: string;
}

export interface RawFrame {
  id: number;
  time: string;
  carId: number;
  plate: string;
  terminalId: number;
  phone: string;
  msgId: string;
  msgName: string;
  serial: number;
  direction: 'up' | 'down';
  hex: string;
  decoded?: DecodedFrame;
}

export interface PositionRow {
  time: string;
  receivedAt: string;
  carId: number;
  plate: string;
  terminalId: number;
  lat: number;
  lng: number;
  altitude: number;
  speed: number;
  direction: number;
  alarm: number;
  status: number;
  alarms: string[];
  states: string[];
  mileage: number | null;
  fuel: number | null;
  signal: number;
  satellites: number;
  blind: boolean;
}

export interface TankStateRow {
  time: string;
  carId: number;
  plate: string;
  terminalId: number;
  lockState: string;
  seal: number;
  sealName: string;
  levels: LevelReading[];
  help: number;
  helpName: string;
}

export interface CommandRow {
  id: number;
  carId: number;
  plate: string;
  terminalId: number;
  phone: string;
  kind: string;
  msgId: string;
  serial: number;
  params: string;
  /** params in the caller's language (server, command_text.go) */
  paramsText?: string;
  userId: number;
  status: string;
  result: number | null;
  reply: string;
  createdAt: string;
  doneAt: string | null;
}

export type RawTable = 'positions' | 'tankStates' | 'rawFrames' | 'commands';
export const RAW_TABLES: readonly RawTable[] = ['positions', 'tankStates', 'rawFrames', 'commands'];
export type TableRow = PositionRow | TankStateRow | RawFrame | CommandRow;

export type ChangeKind = 'acc' | 'positioned' | 'load' | 'open' | 'lock' | 'fault' | 'seal' | 'alarm';
export const CHANGE_KINDS: readonly ChangeKind[] = ['acc', 'positioned', 'load', 'open', 'lock', 'fault', 'seal', 'alarm'];

export interface StateChange {
  time: string;
  carId: number;
  plate: string;
  kind: ChangeKind;
  compartment: number | null;
  device: string;
  bit: number | null;
  from: string;
  to: string;
  text: string;
  lng: Coord;
  lat: Coord;
}

export interface OfflinePeriod {
  carId: number;
  plate: string;
  groupName: string;
  start: string;
  /** null while the car is still offline */
  end: string | null;
  minutes: number;
  lastLng: Coord;
  lastLat: Coord;
  offlineMinutes: number;
}

export type RawQuery = PageQuery & HistoryTarget & { msgId?: string };
export type TableQuery = PageQuery & HistoryTarget & { table: RawTable; only?: string };
export type StateChangeQuery = PageQuery & HistoryTarget & { kind?: ChangeKind };
export type OfflineQuery = PageQuery & { groupId?: number; carId?: number; startTime: string; endTime: string };

export const rawHistoryRecord = (q: RawQuery) => get<Page<RawFrame>>('/hbase/rawHistoryRecord', { ...q });
export const hbaseTable = <T extends TableRow>(q: TableQuery) => post<Page<T>>('/hbase/HbaseServlet', q);
export const stateChangePage = (q: StateChangeQuery) => post<Page<StateChange>>('/monitor-app/stateChange/page', q);
export const offlineRecordPage = (q: OfflineQuery) => post<Page<OfflinePeriod>>('/monitor-app/offlineRecord/page', q);

/** Export requests: the filters of the page, without paging. */
const exportOf = (url: string) => (filters: object): ExportRequest => ({ url, method: 'POST', data: filters });
export const rawExport = exportOf('/hbase/rawHistoryRecord/export');
export const tableExport = exportOf('/hbase/HbaseServlet/export');
export const stateChangeExport = exportOf('/monitor-app/stateChange/export');
export const offlineExport = exportOf('/monitor-app/offlineRecord/export');

/** A vehicle for the pickers (realTimeMoitoring/findCars item). */
export interface CarOption {
  carId: number;
  plate: string;
  groupName: string;
  terminalPhone: string;
}

/** Vehicles whose plate contains `plate` (upper-cased by the server), first 20, in group and plate order. */
export const searchCars = (plate: string) =>
  call<Page<CarOption>>({ method: 'POST', url: '/monitor-app/realTimeMoitoring/findCars', data: { carNumber: plate, pageNum: 1, pageSize: 20 }, silent: true });
