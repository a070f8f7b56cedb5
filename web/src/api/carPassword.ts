import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** Vehicle lock passwords and their viewing records (docs/API.md "Car passwords"). */
export type SyncState = 'pending' | 'ok' | 'failed';

/** One car of 车辆密码: whether a password is set and whether the terminal has it — never the password. */
export interface CarPassword {
  carId: number;
  plate: string;
  groupId: number;
  groupName: string;
  terminalPhone: string;
  passwordSet: boolean;
  setBy: string;
  setAt: string | null;
  /** '' when no password is set. */
  syncState: SyncState | '';
  /** sending, offline, noTerminal, timeout, refused, error. */
  syncReason: string;
  /** The state in the caller's language. */
  syncText: string;
  commandId: number;
  syncedAt: string | null;
}

export interface CarPasswordQuery extends PageQuery {
  groupId?: number;
  plate?: string;
}

/** set's answer: the password is stored; message says whether the terminal has it. */
export interface SetResult extends CarPassword {
  generated: boolean;
  message: string;
}

export interface Revealed {
  carId: number;
  plate: string;
  password: string;
  syncState: SyncState;
  setAt: string | null;
  viewedAt: string;
}

export interface ViewingRecord {
  id: number;
  carId: number;
  carNumber: string;
  groupId: number;
  groupName: string;
  userId: number;
  userName: string;
  viewedAt: string;
  clientIp: string;
  reason: string;
}

export interface ViewingRecordQuery extends PageQuery {
  groupId?: number;
  carNumber?: string;
  userName?: string;
  startTime?: string;
  endTime?: string;
}

export const pageCarPasswords = (q: CarPasswordQuery) => post<Page<CarPassword>>('/base-info-app/carPassword/page', q);
/** No warning here: the dialogs show the server's message themselves. */
export const setCarPassword = (carId: number, password: string) => post<SetResult>('/base-info-app/carPassword/set', { carId, password }, false);
export const resendCarPassword = (carId: number) => post<SetResult>('/base-info-app/carPassword/set', { carId, resend: true }, false);
export const viewCarPassword = (carId: number, reason?: string) => post<Revealed>('/base-info-app/carPassword/view', { carId, reason }, false);
export const carPasswordExport = (f: object): ExportRequest => ({ url: '/base-info-app/carPassword/export', method: 'POST', data: f });

export const pageViewingRecords = (q: ViewingRecordQuery) => post<Page<ViewingRecord>>('/alarm-app/passwordViewingRecord/page', q);
export const viewingRecordExport = (f: object): ExportRequest => ({ url: '/alarm-app/passwordViewingRecord/export', method: 'POST', data: f });

/** A keypad password: exactly six digits. */
export const isPassword = (s: string) => /^\d{6}$/.test(s);
