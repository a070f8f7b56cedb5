import { call, get, post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** Transport plans, their car items, load records, the load report and seal checks (docs/API.md "Transport plans and load records"). */

export interface PlanItem {
  id: number;
  planId: number;
  planNo: string;
  planDate: string;
  customerName: string;
  depotName: string;
  carId: number;
  plate: string;
  stationId: number;
  stationName: string;
  productId: number;
  productName: string;
  plannedL: number;
  remark: string;
  waybillId: number;
  waybillNo: string;
  /** The waybill's state name ('' without a waybill). */
  waybillState: string;
  delivered: boolean;
}

export interface Plan {
  id: number;
  groupId: number;
  groupName: string;
  no: string;
  planDate: string;
  depotId: number;
  depotName: string;
  customerId: number;
  customerName: string;
  title: string;
  remark: string;
  createdAt: number;
  updatedAt: number;
  items: PlanItem[];
  total: number;
  withWaybill: number;
  delivered: number;
  plannedL: number;
}

export interface PlanQuery extends PageQuery {
  startDate?: string;
  endDate?: string;
  depotId?: number;
  customerId?: number;
  keyword?: string;
}

export interface PlanItemInput {
  id?: number;
  carId: number;
  stationId: number;
  productId: number;
  plannedL: number;
  remark?: string;
}

export interface PlanInput {
  id?: number;
  planDate: string;
  depotId: number;
  customerId?: number;
  title?: string;
  remark?: string;
  items: PlanItemInput[];
}

export interface Option {
  id: number;
  name: string;
  type?: string;
}

export interface PlanOptions {
  depots: Option[];
  stations: Option[];
  customers: Option[];
  products: Option[];
}

const PLAN = '/base-info-app/transportPlan/';
const ITEM = '/base-info-app/transportPlanCarItem/';

export const planPage = (q: PlanQuery) => post<Page<Plan>>(PLAN + 'page', q);
export const planOptions = () => get<PlanOptions>(PLAN + 'options');
export const planAdd = (v: PlanInput) => post<Plan>(PLAN + 'add', v);
export const planUpdate = (v: PlanInput) => post<Plan>(PLAN + 'update', v);
export const planDelete = (id: number) => call<null>({ method: 'POST', url: PLAN + 'delete', data: { id } }, false);
/** 生成运单: the waybill service's fromPlan; a failure (not available, refused) is shown with the server's message. */
export const makeWaybills = (planId: number, itemIds?: number[]) => post<unknown>('/base-info-app/waybill/fromPlan', { planId, itemIds });

export interface ItemQuery extends PageQuery {
  startDate?: string;
  endDate?: string;
  carId?: number;
  customerId?: number;
  state?: string;
}

export const itemPage = (q: ItemQuery) => post<Page<PlanItem>>(ITEM + 'page', q);
export const itemExport = (q: Omit<ItemQuery, 'pageNum' | 'pageSize'>): ExportRequest => ({ url: ITEM + 'export', data: q });

export interface LoadProduct {
  id: number;
  groupId: number;
  code: string;
  name: string;
  product: number;
  family: number;
  density20: number;
  k0: number | null;
  k1: number | null;
}

export interface LoadWaybill {
  id: number;
  no: string;
  state: string;
  carId: number;
  plate: string;
  carCompartments: number;
  depotName: string;
  recordId: number;
  compartments: { no: number; productId: number; plannedL: number }[];
  seals: { compartment: number }[];
}

export interface LoadOptions {
  waybills: LoadWaybill[];
  unsealing: LoadWaybill[];
  products: LoadProduct[];
}

export interface LoadRecord {
  id: number;
  waybillId: number;
  waybillNo: string;
  waybillState: string;
  groupName: string;
  carId: number;
  plate: string;
  depotId: number;
  depotName: string;
  ticketNo: string;
  loadedAt: number;
  source: number;
  remark: string;
  items: number;
  vtL: number;
  v20L: number;
  massT: number;
  seals: string;
  updatedAt: number;
}

export interface LoadItem {
  compartment: number;
  productId: number;
  productName: string;
  vtL: number;
  tempC: number;
  density20: number;
  vcf20: number;
  v20L: number;
  massT: number;
  sealNo: string;
}

export interface LoadDetail extends LoadRecord {
  itemList: LoadItem[];
  sealChecks: { compartment: number; expectedNo: string; foundNo: string; ok: boolean; checkedAt: number }[];
}

export interface LoadQuery extends PageQuery {
  startTime?: string;
  endTime?: string;
  carId?: number;
  waybillNo?: string;
  source?: number;
}

export interface LoadItemInput {
  compartment: number;
  productId?: number;
  vtL: number;
  tempC: number;
  density20?: number;
  sealNo?: string;
}

export interface LoadInput {
  waybillId: number;
  ticketNo?: string;
  loadedAt?: number;
  items: LoadItemInput[];
  remark?: string;
}

export interface SheetRow {
  row: number;
  waybillNo: string;
  ticketNo: string;
  loadedAt: number;
  compartment: number;
  product: string;
  vtL: number;
  tempC: number;
  density20: number;
  sealNo: string;
  plate: string;
  productName: string;
  vcf20: number;
  v20L: number;
  massT: number;
}

export interface ImportResult {
  rows: SheetRow[];
  errors: { row: number; message: string }[];
  records: number;
  saved: number;
}

export interface Sums {
  count: number;
  vtL: number;
  v20L: number;
  massT: number;
}

export interface ReportLine extends Sums {
  key: number;
  name: string;
  records: (Sums & { id: number; waybillNo: string; ticketNo: string; plate: string; depotName: string; loadedAt: number })[];
}

export interface LoadReport {
  groupBy: 'car' | 'depot' | 'product';
  lines: ReportLine[];
  total: Sums;
}

export interface ReportQuery {
  startTime: string;
  endTime: string;
  groupBy: 'car' | 'depot' | 'product';
  carId?: number;
}

export interface SealCheckResult {
  ok: boolean;
  mismatches: { compartment: number; expected: string; found: string }[];
  state: string;
}

const LOAD = '/monitor-app/loadRecord/';
const MON = '/monitor-app/realTimeMoitoring/';

export const loadPage = (q: LoadQuery) => post<Page<LoadRecord>>(LOAD + 'page', q);
export const loadDetail = (id: number) => get<LoadDetail>(LOAD + 'detail', { id });
export const loadOptions = () => get<LoadOptions>(LOAD + 'options');
export const loadSave = (v: LoadInput) => post<LoadDetail>(LOAD + 'save', v);
export const loadDelete = (id: number) => call<null>({ method: 'POST', url: LOAD + 'delete', data: { id } }, false);
export const loadExport = (q: Omit<LoadQuery, 'pageNum' | 'pageSize'>): ExportRequest => ({ url: LOAD + 'export', data: q });
const upload = (url: string, file: Blob) => call<ImportResult>({ method: 'POST', url, data: file, headers: { 'Content-Type': 'application/octet-stream' } });
export const loadImportPreview = (file: Blob) => upload(LOAD + 'importPreview', file);
export const loadImport = (file: Blob) => upload(LOAD + 'import', file);
export const sealCheck = (waybillId: number, seals: { compartment: number; foundNo: string }[]) =>
  post<SealCheckResult>(LOAD + 'sealCheck', { waybillId, seals });
export const loadReport = (q: ReportQuery) => post<LoadReport>(MON + 'loadReport', q);
export const loadReportExport = (q: ReportQuery): ExportRequest => ({ url: MON + 'exportLoadReport', data: q });
