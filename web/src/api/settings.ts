import { useQuery } from '@tanstack/react-query';
import { call, get, post } from './client';
import type { Page, PageQuery } from './types';

/** Settings: code lists (access/baseType), platform settings and sessions (access/system), docs/API.md "Settings". */

export const CODE_TYPES = ['vehicleClass', 'fuelType', 'stationType', 'faultType', 'equipmentKind', 'licenceClass', 'leaveKind'] as const;
export type CodeType = (typeof CODE_TYPES)[number];

export interface CodeItem {
  id: number;
  type: CodeType;
  code: string;
  labelZh: string;
  labelTw: string;
  labelEn: string;
  sort: number;
  enabled: boolean;
  builtin: boolean;
  updatedAt: number;
  /** A part's behaviour rests on it: it can be renamed, never disabled or deleted. */
  pinned?: boolean;
}

export interface CodeQuery extends PageQuery {
  type: CodeType;
  keyword?: string;
  enabled?: boolean;
}

export interface CodeInput {
  id?: number;
  type: CodeType;
  code: string;
  labelZh: string;
  labelTw: string;
  labelEn: string;
  sort: number;
  enabled: boolean;
}

const base = '/base-info-app/baseType/';
export const codeTypes = () => get<{ type: CodeType; count: number }[]>(base + 'types');
export const codePage = (q: CodeQuery) => post<Page<CodeItem>>(base + 'page', q);
export const codeAdd = (body: CodeInput) => post<CodeItem>(base + 'add', body);
export const codeEdit = (body: CodeInput) => post<CodeItem>(base + 'edit', body);
export const codeDelete = (id: number) => post<null>(base + 'delete', { id });
export const codeItems = (type: CodeType) => call<CodeItem[]>({ method: 'GET', url: base + 'items', params: { type }, silent: true }, false);

/** An item's label in the console's language (the Chinese one when a translation is missing). */
export function codeLabel(item: Pick<CodeItem, 'labelZh' | 'labelTw' | 'labelEn'>, lang: string): string {
  if (lang === 'zh-TW' && item.labelTw) return item.labelTw;
  if (lang === 'en-US' && item.labelEn) return item.labelEn;
  return item.labelZh;
}

/**
 * Select options of a code list: the enabled items in the list's order, plus `keep` (a record's
 * current code) even when it was disabled since, so that an edit form still shows what is stored.
 */
export function codeOptions(items: readonly CodeItem[] | undefined, lang: string, keep?: string): { value: string; label: string }[] {
  return (items ?? []).filter((it) => it.enabled || it.code === keep).map((it) => ({ value: it.code, label: codeLabel(it, lang) }));
}

/** A code list other pages read (useCodeList('faultType')): cached for a minute, shared by every form. */
export function useCodeList(type: CodeType) {
  return useQuery({ queryKey: ['codeList', type], queryFn: () => codeItems(type), staleTime: 60_000 });
}

export const MAP_PROVIDERS = ['gaode', 'osm', 'offline', 'none'] as const;

export interface TilesMeta {
  name: string;
  format: string;
  minZoom: number;
  maxZoom: number;
  bounds: string;
  tiles: number;
}

export interface SystemValues {
  timeZone: string;
  offlineMinutes: number;
  parkingMinutes: number;
  rawRetentionDays: number;
  positionRetentionDays: number;
  mapProvider: string;
  offlineTiles: string;
  /** raise a fault for a car silent for more than this many hours; 0: off (D82) */
  faultSilentHours: number;
  /** raise a fault on a sensor-fault event (D82) */
  faultSensor: boolean;
}

export interface PurgeResult {
  at: number;
  rawFrames: number;
  positions: number;
  error?: string;
}

export interface SystemDetail extends SystemValues {
  amapKeySet: boolean;
  amapKeyMasked: string;
  defaults: SystemValues;
  retention: { everyMinutes: number; last: PurgeResult | null; nextAt: number; rawCutoff: number; posCutoff: number };
  tileFiles: { name: string; size: number; tiles: number; inUse: boolean }[];
  tiles: TilesMeta | null;
}

export type SystemInput = Partial<SystemValues> & { amapKey?: string };

const sys = '/base-info-app/system/';
export const systemDetail = () => get<SystemDetail>(sys + 'detail');
export const systemEdit = (body: SystemInput) => post<SystemDetail>(sys + 'edit', body);
export const systemPublic = () => call<{ timeZone: string; offlineMinutes: number; parkingMinutes: number; mapProvider: string; tiles: TilesMeta | null }>(
  { method: 'GET', url: sys + 'public', silent: true },
  false,
);
export const uploadTiles = (file: File) => {
  const fd = new FormData();
  fd.append('file', file);
  return post<TilesMeta>(sys + 'uploadTiles', fd);
};

export interface SessionRow {
  id: string;
  userId: number;
  userName: string;
  nickName: string;
  groupId: number;
  groupName: string;
  ip: string;
  client: string;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
}
export interface SessionQuery extends PageQuery {
  userName?: string;
  groupId?: number;
}
export const sessionPage = (q: SessionQuery) => post<Page<SessionRow>>('/authority-app/userInfo/listCurrentRecords', q);
export const sessionSignOut = (id: string) => post<null>('/authority-app/userInfo/signOutSession', { id });

/** A short, readable name of a User-Agent: browser and system. */
export function clientName(ua: string): string {
  if (!ua) return '—';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox' : /Safari\//.test(ua) ? 'Safari' : '';
  const os = /Windows/.test(ua) ? 'Windows' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  const name = [browser, os].filter(Boolean).join(' · ');
  return name || ua.slice(0, 40);
}
