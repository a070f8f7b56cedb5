import { post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** Alarm management calls (/alarm-app, docs/API.md "Alarms"). */

export type AlarmState = 0 | 1 | 2; // unprocessed, processed, pending further process
export type AlarmLevel = 1 | 2 | 3 | 4 | 5; // I (most severe) … V
export type AlarmGroup = 'safety' | 'driving' | 'device' | 'operation';
export const ALARM_GROUPS: AlarmGroup[] = ['safety', 'driving', 'device', 'operation'];
export const ALARM_LEVELS: AlarmLevel[] = [1, 2, 3, 4, 5];
export const ALARM_STATES: AlarmState[] = [0, 1, 2];

export interface AlarmRecord {
  id: number;
  carId: number;
  carNumber: string;
  groupId: number;
  type: string;
  typeName: string;
  level: AlarmLevel;
  startTime: string;
  endTime: string | null;
  lng: number | null;
  lat: number | null;
  speed: number;
  detail: string;
  state: AlarmState;
  handlerName: string;
  handledTime: string | null;
  remark: string;
}

export interface AlarmFilters {
  groupId?: number;
  carId?: number;
  carNumber?: string;
  types?: string[];
  levels?: number[];
  states?: number[];
  startTime?: string;
  endTime?: string;
}

export interface AlarmType {
  code: string;
  sort: number;
  level: AlarmLevel;
  group: AlarmGroup;
  enabled: boolean;
  push: boolean;
  name: string;
  groupName: string;
}

export interface ControlSettings {
  watched: string[];
  speedLimit: number;
  classSpeed: Record<string, number>;
  parkingMinutes: number;
  offlineMinutes: number;
  levelDropLitres: number;
}

export interface ControlTarget {
  groupId?: number;
  carId?: number;
}

export interface ControlView {
  own: (ControlSettings & { id: number; kind: 'group' | 'car'; targetId: number; updatedAt: string }) | null;
  effective: ControlSettings;
  source: '' | 'group' | 'car';
  sourceId: number;
}

export interface TypeCount {
  type: string;
  name: string;
  count: number;
}
export interface CarCount {
  carId: number;
  carNumber: string;
  count: number;
}
export interface DayCount {
  day: string;
  type: string;
  name: string;
  count: number;
}
export interface CarTypes {
  carId: number;
  carNumber: string;
  total: number;
  counts: Record<string, number>;
}

export interface ParkingPeriod {
  id: number;
  carId: number;
  carNumber: string;
  startTime: string;
  endTime: string | null;
  minutes: number;
  lng: number | null;
  lat: number | null;
  thresholdMinutes: number;
}

const M = '/alarm-app/alarmMessage';

export const findAlarms = (q: PageQuery & AlarmFilters) => post<Page<AlarmRecord>>(`${M}/findsome`, q);
export const alarmsByCar = (carId: number, limit = 20) => post<AlarmRecord[]>(`${M}/findListByCarId`, { carId, limit }, false);
export const alarmsByMonitor = (groupId?: number) => post<AlarmRecord[]>(`${M}/selectByMonitor`, groupId ? { groupId } : {});
export const dealAlarms = (ids: number[], state: AlarmState, remark: string) => post<{ count: number }>(`${M}/deal`, { ids, state, remark });
export const alarmExport = (filters: AlarmFilters): ExportRequest => ({ url: `${M}/export`, method: 'POST', data: filters });

export const typeRatio = (f: AlarmFilters) => post<TypeCount[]>(`${M}/exceptionTypeRatio`, f);
export const vehicleRanking = (f: AlarmFilters) => post<CarCount[]>(`${M}/vehicleRankingRatio`, f);
export const typeLine = (f: AlarmFilters) => post<DayCount[]>(`${M}/exceptionTypeLine`, f);
export const vehicleStatistics = (q: PageQuery & AlarmFilters) => post<Page<CarTypes>>(`${M}/vehicleAbnormalStatistics`, q);

export const alarmTypes = () => post<AlarmType[]>('/alarm-app/alarmType/list', {});
export const updateAlarmType = (t: Pick<AlarmType, 'code' | 'level' | 'group' | 'enabled' | 'push'>) =>
  post<AlarmType>('/alarm-app/alarmType/update', t);

export const getControl = (target: ControlTarget) => post<ControlView>('/alarm-app/controlMode/get', target);
export const saveControl = (target: ControlTarget, s: ControlSettings) => post<ControlView>('/alarm-app/controlMode/save', { ...target, ...s });
export const deleteControl = (target: ControlTarget) => post<ControlView>('/alarm-app/controlMode/delete', target);

export const parkingPage = (q: PageQuery & AlarmFilters) => post<Page<ParkingPeriod>>('/alarm-app/parkingTimeOut/page', q);
export const parkingByCar = (carId: number) => post<ParkingPeriod[]>('/alarm-app/parkingTimeOut/getByCarId', { carId });

/** A lock or unlock command the platform sent (password record). */
export interface LockCommand {
  id: number;
  carId: number;
  carNumber: string;
  phone: string;
  kind: 'lock' | 'unlock';
  params: string;
  /** params in the caller's language, e.g. a help request's unlock (server, command_text.go) */
  paramsText?: string;
  userName: string;
  status: 'pending' | 'ok' | 'failed' | 'timeout' | 'offline';
  result: number | null;
  reply: string;
  createdAt: string;
  doneAt: string | null;
}

export const passwordRecordPage = (q: PageQuery & AlarmFilters) => post<Page<LockCommand>>('/alarm-app/passwordRecord/page', q);
export const lockRecordPage = (q: PageQuery & AlarmFilters) => post<Page<AlarmRecord>>('/alarm-app/lockRecord/page', q);
