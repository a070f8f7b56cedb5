import { call, post } from '../../../api/client';
import type { ExportRequest } from '../../../api/export';
import type { Page, PageQuery } from '../../../api/types';

/** Firmware upgrade packages and their pushes (docs/API.md "Firmware upgrades"). */

const BASE = '/base-info-app/upgradePack/';

/** 0x8108 upgrade types: terminal, IC card reader, BeiDou module. */
export const KINDS = [0, 12, 52] as const;
/** Job statuses: queued, sending, sent, acknowledged (0x0108), failed. */
export const STATUSES = [1, 2, 3, 4, 5] as const;
/** The server's limits (firmware.MaxPackage, MaxPushTerminals, DefaultValidHours). */
export const MAX_PACKAGE_MB = 32;
export const MAX_PUSH_CARS = 100;
export const DEFAULT_VALID_HOURS = 72;

export interface UpgradePackage {
  id: number;
  kind: number;
  manufacturer: string;
  version: string;
  fileName: string;
  size: number;
  sha256: string;
  md5: string;
  remark: string;
  busy: number;
  createdAt: string;
}

export interface PackageQuery extends PageQuery {
  kind?: number;
  manufacturer?: string;
  version?: string;
}

export interface Job {
  id: number;
  pushId: number;
  packageId: number;
  kind: number;
  manufacturer: string;
  version: string;
  terminalId: number;
  carId: number;
  phone: string;
  plate: string;
  groupName: string;
  status: number;
  acked: number;
  total: number;
  attempts: number;
  /** -1 none; 0 success, 1 failure, 2 cancelled (the terminal's 0x0108). */
  result: number;
  reason: string;
  pushedBy: string;
  pushedAt: string;
  expiresAt: string;
  updatedAt: string;
}

export interface JobQuery extends PageQuery {
  packageId?: number;
  status?: number;
  plate?: string;
  groupId?: number;
}

export interface Push {
  id: number;
  kind: number;
  manufacturer: string;
  version: string;
  userName: string;
  groupName: string;
  terminals: number;
  done: number;
  failed: number;
  createdAt: string;
  expiresAt: string;
}

export interface PushQuery extends PageQuery {
  version?: string;
  groupId?: number;
  startTime?: string;
  endTime?: string;
}

export const packagePage = (q: PackageQuery) => post<Page<UpgradePackage>>(BASE + 'page', q);
export const packageDelete = (id: number) => post<null>(BASE + 'delete', { id }, false);
export const packageUpload = (form: FormData) => call<UpgradePackage>({ method: 'POST', url: BASE + 'upload', data: form, timeout: 600_000 });
export const pushPackage = (packageId: number, carIds: number[], validHours: number) =>
  post<{ pushId: number; terminals: number }>(BASE + 'push', { packageId, carIds, validHours });
export const jobPage = (q: JobQuery) => post<Page<Job>>(BASE + 'jobs', q);
export const jobRetry = (carId: number, packageId: number) => post<null>(BASE + 'retry', { carId, packageId });
export const pushPage = (q: PushQuery) => post<Page<Push>>(BASE + 'pushes', q);
export const pushExport = (q: Omit<PushQuery, keyof PageQuery>): ExportRequest => ({ url: BASE + 'pushExport', data: q });

/** A size in bytes as the list shows it (KB / MB, one decimal). */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The progress of a job in percent: sub-packages acknowledged of all (100 once acknowledged). */
export function progressPct(j: Pick<Job, 'status' | 'acked' | 'total'>): number {
  if (j.status === 4) return 100;
  if (!j.total) return 0;
  return Math.min(100, Math.floor((j.acked * 100) / j.total));
}

/** The job's state key under firmware.status / firmware.result: an acknowledgement says the terminal's result. */
export function stateKey(j: Pick<Job, 'status' | 'result'>): string {
  if (j.status === 4) return `result.${j.result}`;
  return `status.${j.status}`;
}

/** A job may be retried by hand once it failed or the terminal answered failure / cancelled. */
export const canRetry = (j: Pick<Job, 'status' | 'result'>) => j.status === 5 || (j.status === 4 && j.result !== 0);

/** Whether any job on the page is still moving (the list then refreshes itself). */
export const anyActive = (jobs: Pick<Job, 'status'>[]) => jobs.some((j) => j.status >= 1 && j.status <= 3);
