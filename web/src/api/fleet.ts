import { get, post } from './client';
import type { Page, PageQuery } from './types';

/** Fleet registry (docs/API.md "Fleet registry"): vehicles, SIM cards, terminals. */

export interface CarInput {
  id?: number;
  groupId?: number;
  plate: string;
  plateColour: string;
  driverName: string;
  driverPhone: string;
  owner: string;
  trailerNo: string;
  compartments: number;
  vehicleClass: string;
  fuelType: number;
  loadingMethod: number;
  smallManholeCoverNumber: number;
  manholeCoverNumber: number;
  oilDischargeValveNumber: number;
  bottomValveNumber: number;
  speedLimit: number;
  parkingMinutes: number;
  offlineMinutes: number;
  safeVolume: number;
  tankHeight: number;
  probeLengths: number[];
  vin: string;
  bodyColour: string;
  remark: string;
}

export interface Car extends CarInput {
  id: number;
  groupName: string;
  terminalId: number | null;
  terminalPhone: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CarQuery extends PageQuery {
  plate?: string;
  groupId?: number;
  driverName?: string;
  fuelType?: number;
}

export interface VideoChannel {
  channelNo: number;
  name: string;
  enabled: boolean;
}

export const pageCars = (q: CarQuery) => post<Page<Car>>('/base-info-app/carInfo/page', q);
export const carDetail = (id: number) => get<Car>('/base-info-app/carInfo/detail', { id });
export const insertCar = (body: CarInput) => post<Car>('/base-info-app/carInfo/insert', body);
export const updateCar = (body: CarInput & { id: number }) => post<Car>('/base-info-app/carInfo/update', body);
export const deleteCars = (ids: number[]) => post<number>('/base-info-app/carInfo/deleteByIds', { ids }, false);
export const moveCars = (ids: number[], groupId: number) => post<number>('/base-info-app/carInfo/move', { ids, groupId });
export const carChannels = (carId: number) => get<VideoChannel[]>('/base-info-app/carVideoChannel/selectsome', { carId });
export const saveCarChannels = (carId: number, channels: VideoChannel[]) =>
  post<VideoChannel[]>('/base-info-app/carVideoChannel/save', { carId, channels });

export type Operator = 'cmcc' | 'cucc' | 'ctcc' | '';

export interface SimInput {
  id?: number;
  groupId?: number;
  iccid: string;
  msisdn: string;
  operator: Operator;
  status: number;
  expireAt: string | null;
  remark: string;
}

export interface Sim extends SimInput {
  id: number;
  groupName: string;
  terminalId: number | null;
  terminalPhone: string | null;
  createdAt: string;
}

export interface SimQuery extends PageQuery {
  iccid?: string;
  msisdn?: string;
  operator?: string;
  groupId?: number;
  status?: number;
}

export const pageSims = (q: SimQuery) => post<Page<Sim>>('/base-info-app/simInfo/page', q);
export const insertSim = (body: SimInput) => post<Sim>('/base-info-app/simInfo/insert', body);
export const updateSim = (body: SimInput & { id: number }) => post<Sim>('/base-info-app/simInfo/update', body);
export const deleteSims = (ids: number[]) => post<number>('/base-info-app/simInfo/deleteByIds', { ids }, false);

export interface TerminalInput {
  id?: number;
  groupId?: number;
  phone: string;
  deviceId: string;
  manufacturer: string;
  model: string;
  protocol: number;
  authCode: string;
  status: number;
  remark: string;
}

export interface Terminal extends TerminalInput {
  id: number;
  groupName: string;
  carId: number | null;
  plate: string | null;
  simId: number | null;
  msisdn: string | null;
  createdAt: string;
  /** the version of the last successful terminal upgrade through the platform ('' none) */
  firmware: string;
  /** what the terminal said of itself in its last 0x0107 (null: it never answered 0x8107) */
  attrs: TerminalAttrs | null;
}

/** A terminal's own report (0x0107, D90); `at` and `askedAt` are epoch milliseconds. */
export interface TerminalAttrs {
  type: number;
  maker: string;
  model: string;
  device: string;
  iccid: string;
  hardware: string;
  firmware: string;
  gnss: number;
  comm: number;
  at: number;
  askedAt: number;
}

export interface TerminalQuery extends PageQuery {
  phone?: string;
  deviceId?: string;
  plate?: string;
  msisdn?: string;
  groupId?: number;
  bound?: boolean;
  firmware?: string;
}

export interface Binding {
  id: number;
  terminalId: number;
  carId: number | null;
  plate: string | null;
  simId: number | null;
  msisdn: string | null;
  boundAt: string;
  unboundAt: string | null;
  userId: number;
  userName: string;
}

export const pageTerminals = (q: TerminalQuery) => post<Page<Terminal>>('/base-info-app/terminal/page', q);
export const insertTerminal = (body: TerminalInput) => post<Terminal>('/base-info-app/terminal/insert', body);
export const updateTerminal = (body: TerminalInput & { id: number }) => post<Terminal>('/base-info-app/terminal/update', body);
export const deleteTerminals = (ids: number[]) => post<number>('/base-info-app/terminal/deleteByIds', { ids }, false);
export const bindTerminal = (id: number, carId: number | null, simId: number | null) =>
  post<Terminal>('/base-info-app/terminal/bind', { id, carId, simId });
/** Asks the terminal for its attributes now (0x8107) and returns it as stored after its answer. */
export const queryTerminalAttributes = (id: number) => post<Terminal>('/base-info-app/terminal/queryAttributes', { id });
export const terminalBindings = (id: number) => get<Binding[]>('/base-info-app/terminal/bindings', { id });
