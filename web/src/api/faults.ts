import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** After-sales fault records (/after-sales-app/faultRecord/, module code 07, D69). */
const P = '/after-sales-app/faultRecord/';

export type FaultState = 'open' | 'inProgress' | 'waitingParts' | 'closed';
export const FAULT_STATES: FaultState[] = ['open', 'inProgress', 'waitingParts', 'closed'];
export type SourceKind = '' | 'offline' | 'tankEvent';

export interface Visit {
  at: string;
  technician: string;
  work: string;
}
export interface Part {
  name: string;
  quantity: number;
}

export interface Fault {
  id: number;
  carId: number;
  plate: string;
  groupId: number;
  groupName: string;
  device: string;
  faultType: string;
  symptom: string;
  reportedBy: string;
  reportedAt: string;
  technicianId: number;
  technicianName: string;
  state: FaultState;
  resolution: string;
  closedAt: string;
  resolveMinutes: number;
  visits: Visit[];
  parts: Part[];
  sourceKind: SourceKind;
  sourceId: number;
  sourceAt: string;
  createdBy: string;
  /** raised by the system (D82): reportedBy and symptom are written from the source */
  bySystem: boolean;
}

export interface FaultInput {
  id?: number;
  carId: number;
  device?: string;
  faultType: string;
  symptom: string;
  reportedBy?: string;
  reportedAt?: string;
  technicianId?: number;
  state?: FaultState;
  resolution?: string;
  visits?: Visit[];
  parts?: Part[];
  sourceKind?: SourceKind;
  sourceId?: number;
  sourceAt?: string;
}

export interface FaultQuery extends PageQuery {
  groupId?: number;
  carId?: number;
  plate?: string;
  state?: FaultState;
  faultType?: string;
  technicianId?: number;
  startTime?: string;
  endTime?: string;
}

export interface FaultMeta {
  types: string[];
  states: FaultState[];
  transitions: Record<FaultState, FaultState[]>;
}

export interface Technician {
  id: number;
  name: string;
  groupName: string;
}

export const faultPage = (q: FaultQuery) => post<Page<Fault>>(P + 'page', q);
export const faultExport = (q: Omit<FaultQuery, keyof PageQuery>): ExportRequest => ({ url: P + 'export', data: q });
export const faultAdd = (v: FaultInput) => post<Fault>(P + 'add', v);
export const faultEdit = (v: FaultInput) => post<Fault>(P + 'edit', v);
export const faultClose = (id: number, resolution: string) => post<Fault>(P + 'close', { id, resolution });
export const faultDelete = (id: number) => post<null>(P + 'delete', { id });
export const faultMeta = () => post<FaultMeta>(P + 'meta', {});
export const faultTechnicians = () => post<Technician[]>(P + 'technicians', {});

/** The states a fault in `from` may be put in (itself first), by the server's moves. */
export function nextStates(meta: FaultMeta | undefined, from: FaultState | undefined): FaultState[] {
  if (!from) return ['open', 'inProgress', 'waitingParts', 'closed'];
  return [from, ...(meta?.transitions[from] ?? [])];
}

/** "2 d 3 h", "45 min": a time to resolve in minutes, short. */
export function resolveText(t: (k: string, o?: Record<string, unknown>) => string, minutes: number): string {
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return t('faults.daysHours', { d, h });
  if (h > 0) return t('faults.hoursMinutes', { h, m });
  return t('faults.minutes', { m });
}
