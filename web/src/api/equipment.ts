import { get, post } from './client';
import type { ExportRequest } from './export';
import type { Page, PageQuery } from './types';

/** Equipment and device models (docs/API.md "Equipment"). */

/**
 * Device kinds are codes of the equipmentKind code list (useCodes('equipmentKind'), D95). These are
 * registered on their own pages (terminalVXE, blueLock, the stations' tanks): only their extra fields are
 * kept here. The list pins them (never deleted or disabled).
 */
export const MIRRORED_KINDS: readonly string[] = ['terminal', 'lock', 'gauge'];
/** The kind a new device starts with. */
export const DEFAULT_KIND = 'camera';
export const STATES = [1, 2, 3] as const; // in service, in repair, retired
export const WARRANTIES = [0, 1, 2, 3] as const; // none recorded, valid, expiring (30 days), expired

export interface Device {
  /** kind:serial — unique in the list. */
  key: string;
  /** 0: a registered terminal, lock or gauge nobody has added fields to yet. */
  id: number;
  kind: string;
  serial: string;
  mirror: boolean;
  modelId: number | null;
  modelName: string;
  videoChannels: number;
  manufacturer: string;
  installDate: string;
  warrantyEnd: string;
  warranty: number;
  state: number;
  carId: number | null;
  plate: string;
  stationId: number | null;
  stationName: string;
  groupId: number;
  groupName: string;
  notes: string;
  updatedAt: string;
}

export interface DeviceQuery extends PageQuery {
  kind?: string;
  state?: number;
  serial?: string;
  plate?: string;
  carId?: number;
  stationId?: number;
  warranty?: number;
  groupId?: number;
}

export interface DeviceInput {
  id?: number;
  kind: string;
  serial: string;
  modelId?: number;
  manufacturer?: string;
  installDate?: string;
  warrantyEnd?: string;
  state?: number;
  carId?: number;
  stationId?: number;
  notes?: string;
}

export interface DeviceModel {
  id: number;
  name: string;
  kind: string;
  manufacturer: string;
  videoChannels: number;
  channelNames: string[];
  probes: number;
  lockBle: boolean;
  lock4g: boolean;
  valveSensors: number;
  can: boolean;
  remark: string;
  updatedAt: string;
  /** Devices naming this model. */
  devices: number;
}

export type DeviceModelInput = Omit<DeviceModel, 'id' | 'updatedAt' | 'devices'> & { id?: number };

export interface ModelQuery extends PageQuery {
  name?: string;
  kind?: string;
  video?: boolean;
}

export interface ModelOption {
  id: number;
  name: string;
  kind: string;
  manufacturer: string;
  videoChannels: number;
}

export interface Place {
  id: number;
  name: string;
  groupName: string;
}

/** What a car's devices offer (GET carFunctions). */
export interface CarFunctions {
  carId: number;
  /** false: none of the car's devices has a model — show everything. */
  known: boolean;
  models: string[];
  videoChannels: number;
  channelNames: string[];
  probes: number;
  lockBle: boolean;
  lock4g: boolean;
  locks: number;
  valveSensors: number;
  can: boolean;
  showVideo: boolean;
  showLocks: boolean;
}

const D = '/base-info-app/equipment/';
const M = '/authority-app/equipmentFun/';
type Filters<Q> = Omit<Q, 'pageNum' | 'pageSize'>;

export const devicePage = (q: DeviceQuery) => post<Page<Device>>(D + 'page', q);
export const deviceSave = (v: DeviceInput) => post<Device>(D + 'save', v);
/** No warning here: ConfirmDelete shows the failure. */
export const deviceDelete = (id: number) => post<{ mirror: boolean }>(D + 'delete', { id }, false);
export const deviceExport = (q: Filters<DeviceQuery>): ExportRequest => ({ url: D + 'export', data: q });
export const findPlaces = (text: string) => post<{ cars: Place[]; stations: Place[] }>(D + 'places', { text }, false);
/** Silent: a car whose functions cannot be read keeps every action. */
export const carFunctions = (carId: number) => get<CarFunctions>(D + 'carFunctions', { carId }, false);

/** editable: the caller may change models (platform users only). */
export const modelPage = (q: ModelQuery) => post<Page<DeviceModel> & { editable: boolean }>(M + 'page', q);
export const modelOptions = (kind?: string) => get<ModelOption[]>(M + 'list', kind ? { kind } : {});
export const modelSave = (v: DeviceModelInput) => post<DeviceModel>(M + 'save', v);
export const modelDelete = (id: number) => post<null>(M + 'delete', { id }, false);
