import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** Lock events from the terminals and remote lock commands (docs/API.md "Lock events"). */

const P = '/lock-app/blueLockRecord/';

export interface LockEventQuery extends PageQuery {
  startTime?: string;
  endTime?: string;
  groupId?: number;
  carId?: number;
  plate?: string;
  /** lock.Event*: 1 opened, 2 closed, 3 tampered, 4 low battery, 5 offline, 6 online. */
  event?: number;
  /** lock.Method*: 0 none, 1 remote, 2 BLE, 3 local key. */
  method?: number;
  fence?: 'in' | 'out';
  serial?: string;
  waybillId?: number;
  commandId?: number;
}

export interface LockEvent {
  id: number;
  lockId: number;
  serial: string;
  groupId: number;
  groupName: string;
  carId: number;
  plate: string;
  compartment: number;
  device: number;
  event: number;
  method: number;
  /** -1 unknown. */
  batteryPct: number;
  time: string;
  lat: number;
  lon: number;
  /** 0: outside every fence. */
  stationId: number;
  stationName: string;
  address: string;
  waybillId: number;
  waybillNo: string;
  commandId: number;
  recordedAt: string;
}

export interface LockEventCounts {
  opened: number;
  closed: number;
  tampered: number;
  outside: number;
  remote: number;
}

export interface LockEventPage extends Page<LockEvent> {
  counts: LockEventCounts;
}

export type CommandStatus = 'pending' | 'ok' | 'failed' | 'timeout' | 'offline';

export interface LockCommandQuery extends PageQuery {
  startTime?: string;
  endTime?: string;
  groupId?: number;
  carId?: number;
  plate?: string;
  status?: CommandStatus;
}

export interface LockCommand {
  id: number;
  carId: number;
  plate: string;
  kind: 'lock' | 'unlock';
  params: string;
  paramsText: string;
  userId: number;
  userName: string;
  status: CommandStatus;
  result: number | null;
  reply: string;
  createdAt: string;
  doneAt?: string;
  /** Lock events this command explains. */
  events: number;
}

export interface LockCommandInput {
  carId: number;
  action: 'lock' | 'unlock';
  /** 1–8; empty = all compartments. */
  compartments: number[];
}

export const lockEventPage = (q: LockEventQuery) => post<LockEventPage>(P + 'page', q);
export const lockEventExport = (q: Omit<LockEventQuery, 'pageNum' | 'pageSize'>): ExportRequest => ({ url: P + 'export', data: q });
export const lockCommandPage = (q: LockCommandQuery) => post<Page<LockCommand>>(P + 'commands', q);
export const sendLockCommand = (in_: LockCommandInput) => post<LockCommand>(P + 'command', in_);
