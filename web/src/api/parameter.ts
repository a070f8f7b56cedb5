import { get, post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** Remote calibration (docs/API.md "Remote calibration", DECISIONS D40). */

/** 0 DWORD, 1 signed DWORD, 2 string. */
export type ParamKind = 0 | 1 | 2;
export type ParamGroup = 'comm' | 'speed' | 'probe' | 'other';
export type ParamValue = number | string;

/** One parameter with what is known of it. */
export interface ParamRow {
  id: number;
  hex: string;
  key: string;
  /** In the caller's language ("1 号仓 零点偏移"). */
  name: string;
  group: ParamGroup;
  compartment: number;
  kind: ParamKind;
  min: number;
  max: number;
  unit: string;
  unitText: string;
  value: ParamValue | null;
  /** 'read' or 'set'. */
  source: string;
  at: string | null;
}

export interface ParamValues {
  carId: number;
  plate: string;
  online: boolean;
  hasTerminal: boolean;
  compartments: number;
  readAt: string | null;
  rows: ParamRow[];
  pending: number | null;
}

export type CommandState = 'sent' | 'acknowledged' | 'failed' | 'timeout' | 'offline';

export interface ParamChange extends ParamRow {
  old: ParamValue | null;
  new: ParamValue | null;
}

export interface ParamCommand {
  id: number;
  carId: number;
  plate: string;
  kind: 'read' | 'set';
  kindText: string;
  state: CommandState;
  stateText: string;
  final: boolean;
  result: number | null;
  message: string;
  userName: string;
  createdAt: string;
  doneAt: string | null;
  commandId: number;
  changes: ParamChange[];
}

export interface ParamHistoryQuery extends PageQuery {
  carId?: number;
  kind?: string;
  state?: string;
  startTime?: string;
  endTime?: string;
}

export const paramValues = (carId: number) => post<ParamValues>('/monitor-app/parameter/values', { carId });
/** No warning toast: the page shows the server's message in place. */
export const readParams = (carId: number, ids?: number[]) => post<ParamCommand>('/monitor-app/parameter/read', { carId, ids }, false);
export const setParams = (carId: number, params: { id: number; value: ParamValue }[]) =>
  post<ParamCommand>('/monitor-app/parameter/set', { carId, params }, false);
export const paramCommand = (id: number) => get<ParamCommand>('/monitor-app/parameter/command', { id });
export const paramHistory = (q: ParamHistoryQuery) => post<Page<ParamCommand>>('/monitor-app/parameter/history', q);
export const paramHistoryExport = (f: object): ExportRequest => ({ url: '/monitor-app/parameter/export', method: 'POST', data: f });
