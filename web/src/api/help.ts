import type { LiveMessage } from '../app/liveMessages';
import { post } from './client';
import type { Page, PageQuery } from './types';

/** Help requests (docs/API.md "Help requests"): 1 unlock, 2 lock; the operator answers 1, 2 or 3 (ignore). */
export type HelpStatus = 'pending' | 'sending' | 'done' | 'failed' | 'ignored';
export const HELP_STATUSES: HelpStatus[] = ['pending', 'sending', 'done', 'failed', 'ignored'];
export const DEAL_IGNORE = 3;

export interface HelpRecord {
  id: number;
  carId: number;
  carNumber: string;
  terminalId: number;
  groupId: number;
  groupName: string;
  requestType: number;
  requestId: number;
  requestTime: string;
  lng: number;
  lat: number;
  /** km/h */
  speed: number;
  address: string;
  stationId: number;
  stationName: string;
  status: HelpStatus;
  dealType: number;
  dealtBy: string;
  dealtAt: string | null;
  commandId: number;
  result: string;
}

export interface HelpQuery extends PageQuery {
  groupId?: number;
  carNumber?: string;
  requestType?: number;
  status?: HelpStatus;
  startTime?: string;
  endTime?: string;
}

/** What the help-request view shows: a record, or the data of a requestHelp live message. */
export interface HelpRequest {
  id: number;
  requestType: number;
  requestTime: string;
  carNumber: string;
  speed: number | string;
  address: string;
  /** The address in the other console languages (tag → text), when a live message carries them. */
  addresses?: Record<string, string>;
  lng: number | string;
  lat: number | string;
}

/** The data key of the address in a console language ("address:en-US"; alarm.AddressKey). */
const ADDRESS_IN = 'address:';

/** The help request carried by a requestHelp live message (all values are strings, spec §3). */
export function helpRequestOf(m: LiveMessage): HelpRequest {
  const d = m.data ?? {};
  const addresses = Object.fromEntries(
    Object.entries(d).filter(([k]) => k.startsWith(ADDRESS_IN)).map(([k, v]) => [k.slice(ADDRESS_IN.length), v]),
  );
  return {
    id: Number(d.id),
    requestType: Number(d.requestType),
    requestTime: d.requestTime ?? '',
    carNumber: d.carNumber ?? '',
    speed: d.speed ?? '',
    address: d.address ?? '',
    addresses,
    lng: d.lng ?? '',
    lat: d.lat ?? '',
  };
}

export const pageHelpRecords = (q: HelpQuery) => post<Page<HelpRecord>>('/base-info-app/helpRecord/page', q);
/** No warning here: the view shows the server's message in its own dialog. */
export const dealHelp = (id: number, dealType: number) => post<HelpRecord>('/base-info-app/helpRecord/deal', { id, dealType }, false);
export const helpExport = (f: object) => ({ url: '/base-info-app/helpRecord/export', method: 'POST' as const, data: f });

/** Spec §9: request type 1 is unlock, anything else lock. */
export const isUnlock = (requestType: number | string) => Number(requestType) === 1;
