import { call, http, post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** The staff register: employees, duties, leave and procedures (docs/API.md "Staff"). */

export const ROLES = [1, 2, 4, 8] as const; // driver, escort, loader, dispatcher (a bit set)
export const ROLE_NAMES: Record<number, string> = { 1: 'driver', 2: 'escort', 4: 'loader', 8: 'dispatcher' };
export const LICENCE_CLASSES = ['A1', 'A2', 'A3', 'B1', 'B2', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'D', 'E', 'F', 'M', 'N', 'P'] as const;
export const EXPIRY_STATES = ['valid', 'expiring', 'expired'] as const;
export type Expiry = 'none' | (typeof EXPIRY_STATES)[number];
export const LEAVE_STATES = [1, 2, 3] as const; // pending, approved, rejected
export const FLOW_KINDS = [1, 2] as const; // loading, unloading

export interface Employee {
  id: number;
  groupId: number;
  groupName: string;
  name: string;
  idCard: string;
  phone: string;
  roles: number;
  licenceClasses: string;
  licenceExpiry: string;
  qualNo: string;
  qualKind: number;
  qualExpiry: string;
  expiresOn: string;
  expiry: Expiry;
  state: number;
  hasPhoto: boolean;
  duties: string[];
  remark: string;
  updatedAt: string;
}

export interface EmployeeQuery extends PageQuery {
  keyword?: string;
  role?: number;
  groupId?: number;
  expiry?: string;
  state?: number;
}

export interface EmployeeInput {
  id?: number;
  groupId?: number;
  name: string;
  idCard: string;
  phone: string;
  roles: number;
  licenceClasses: string;
  licenceExpiry: string;
  qualNo: string;
  qualKind: number;
  qualExpiry: string;
  state: number;
  remark: string;
}

export interface Summary {
  expiring: number;
  expired: number;
  total: number;
}

export interface CrewOption {
  id: number;
  name: string;
  phone: string;
}

export interface SheetRow {
  row: number;
  name: string;
  idCard: string;
  phone: string;
  roles: number;
  group: string;
}

export interface ImportResult {
  rows: SheetRow[];
  errors: { row: number; message: string }[];
  saved: number;
}

export interface Duty {
  id: number;
  groupId: number;
  groupName: string;
  name: string;
  description: string;
  responsibilities: string;
  holders: { id: number; name: string; phone: string }[];
  steps: number;
  updatedAt: string;
}

export interface DutyInput {
  id?: number;
  groupId?: number;
  name: string;
  description: string;
  responsibilities: string;
  holderIds: number[];
}

export interface Leave {
  id: number;
  employeeId: number;
  employeeName: string;
  phone: string;
  groupName: string;
  kind: string; // a code of the leaveKind code list
  from: string;
  to: string;
  days: number;
  reason: string;
  state: number;
  decidedBy: string;
  decidedAt: string;
  comment: string;
  current: boolean;
  createdAt: string;
}

export interface LeaveQuery extends PageQuery {
  keyword?: string;
  groupId?: number;
  kind?: string;
  state?: number;
  from?: string;
  to?: string;
}

export interface LeaveInput {
  id?: number;
  employeeId: number;
  kind: string;
  from: string;
  to: string;
  reason: string;
}

export interface Step {
  seq?: number;
  text: string;
  dutyId: number;
  dutyName?: string;
}

export interface Flow {
  id: number;
  groupId: number;
  groupName: string;
  name: string;
  kind: number;
  remark: string;
  steps: Step[];
  stations: { id: number; name: string }[];
  products: { id: number; name: string }[];
  updatedAt: string;
}

export interface FlowInput {
  id?: number;
  groupId?: number;
  name: string;
  kind: number;
  remark: string;
  steps: { text: string; dutyId: number }[];
  stationIds: number[];
  productIds: number[];
}

const EMP = '/base-info-app/employees/';
const DUTY = '/base-info-app/jobDuty/';
const LEAVE = '/base-info-app/leaveRecord/';
const FLOW = '/base-info-app/operateFlow/';
type Filters<Q> = Omit<Q, 'pageNum' | 'pageSize'>;

export const employeePage = (q: EmployeeQuery) => post<Page<Employee>>(EMP + 'page', q);
export const employeeSummary = (groupId?: number) => call<Summary>({ method: 'POST', url: EMP + 'summary', data: groupId ? { groupId } : {}, silent: true }, false);
export const employeeSave = (v: EmployeeInput) => post<Employee>(EMP + 'save', v);
export const employeeDelete = (id: number) => post<null>(EMP + 'delete', { id }, false);
export const employeeExport = (q: Filters<EmployeeQuery>): ExportRequest => ({ url: EMP + 'export', data: q });
const upload = (url: string, file: Blob) => call<ImportResult>({ method: 'POST', url, data: file, headers: { 'Content-Type': 'application/octet-stream' } });
export const employeeImportPreview = (file: Blob) => upload(EMP + 'importPreview', file);
export const employeeImport = (file: Blob) => upload(EMP + 'import', file);
export const employeePhotoUpload = (id: number, file: Blob) =>
  call<{ hasPhoto: boolean }>({ method: 'POST', url: `${EMP}photo?id=${id}`, data: file, headers: { 'Content-Type': 'application/octet-stream' } });
/** The photo as an object URL (the endpoint needs the token, so an <img src> cannot fetch it itself). */
export async function employeePhotoURL(id: number): Promise<string> {
  const res = await http.get<Blob>(`${EMP}photo?id=${id}`, { responseType: 'blob', silent: true });
  return URL.createObjectURL(res.data);
}
export const crewOptions = (carId: number, role: 1 | 2, at?: number) =>
  call<CrewOption[]>({ method: 'POST', url: EMP + 'crew', data: { carId, role, at: at ?? 0 }, silent: true }, false);

export const dutyPage = (q: PageQuery & { name?: string; groupId?: number }) => post<Page<Duty>>(DUTY + 'page', q);
export const dutySave = (v: DutyInput) => post<{ id: number }>(DUTY + 'save', v);
export const dutyDelete = (id: number) => post<null>(DUTY + 'delete', { id }, false);

export const leavePage = (q: LeaveQuery) => post<Page<Leave>>(LEAVE + 'page', q);
export const leaveSave = (v: LeaveInput) => post<Leave>(LEAVE + 'save', v);
export const leaveDecide = (id: number, approve: boolean, comment: string) => post<Leave>(LEAVE + 'approve', { id, approve, comment });
export const leaveDelete = (id: number) => post<null>(LEAVE + 'delete', { id }, false);
export const leaveExport = (q: Filters<LeaveQuery>): ExportRequest => ({ url: LEAVE + 'export', data: q });

export const flowPage = (q: PageQuery & { name?: string; kind?: number; groupId?: number }) => post<Page<Flow>>(FLOW + 'page', q);
export const flowSave = (v: FlowInput) => post<{ id: number }>(FLOW + 'save', v);
export const flowDelete = (id: number) => post<null>(FLOW + 'delete', { id }, false);

/** GB 11643-1999: 17 digits, a valid birth date and the check character (X upper-case). */
export function validIDCard(raw: string): boolean {
  const s = raw.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(s)) return false;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(s[i]) * w[i];
  if ('10X98765432'[sum % 11] !== s[17]) return false;
  const y = Number(s.slice(6, 10));
  const m = Number(s.slice(10, 12));
  const d = Number(s.slice(12, 14));
  const dt = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** The roles of a bit set, in order. */
export const rolesOf = (bits: number) => ROLES.filter((r) => (bits & r) !== 0);

/** The bit set of a list of roles. */
export const bitsOf = (roles: readonly number[] | undefined) => (roles ?? []).reduce((a, r) => a | r, 0);

/** The colour of an expiry state's tag. */
export const expiryColour = (e: Expiry) => ({ none: 'default', valid: 'green', expiring: 'orange', expired: 'red' })[e];

/** The colour of a leave state's tag. */
export const leaveColour = (s: number) => ({ 1: 'gold', 2: 'green', 3: 'default' })[s] ?? 'default';

/** Steps moved: item i swapped with its neighbour in direction dir (-1 up, 1 down); unchanged at the ends. */
export function moveStep<T>(list: readonly T[], i: number, dir: -1 | 1): T[] {
  const j = i + dir;
  if (j < 0 || j >= list.length) return [...list];
  const out = [...list];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}
