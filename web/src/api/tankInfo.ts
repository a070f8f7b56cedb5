import { call, get, post } from './client';
import type { Page, PageQuery } from './types';

/** Tank base data (docs/API.md "Tank base data"). Product codes: tank.Product* (0# diesel … jet fuel). */
export const PRODUCTS = [0, 1, 2, 3, 4] as const;

export interface StrapRow {
  height: number;
  volume: number;
}

export interface CarSummary {
  carId: number;
  plate: string;
  groupId: number;
  groupName: string;
  compartments: number;
  listed: number;
  tables: number;
  capacity: number;
  fuelType: number;
  updatedAt: string;
}

export interface CarQuery extends PageQuery {
  plate?: string;
  groupId?: number;
  tableState?: 'none' | 'some' | 'all';
}

export interface Compartment {
  no: number;
  saved: boolean;
  product: number;
  capacity: number;
  height: number;
  probeType: string;
  probeOffset: number;
  density20: number;
  strap: StrapRow[];
  tableCapacity: number;
  capacityWarning: boolean;
  outside: boolean;
  updatedAt: string;
}

export interface CarView {
  carId: number;
  plate: string;
  groupName: string;
  fuelType: number;
  compartments: Compartment[];
}

export interface CompartmentInput {
  no: number;
  product: number;
  capacity: number;
  height: number;
  probeType: string;
  probeOffset: number;
  density20: number;
  strap: StrapRow[];
}

export interface GroundTank {
  id: number;
  stationId: number;
  stationName: string;
  groupName: string;
  tankNo: number;
  name: string;
  product: number;
  capacity: number;
  height: number;
  density20: number;
  strapRows: number;
  tableCapacity: number;
  capacityWarning: boolean;
  strap?: StrapRow[];
  gaugeHost: string;
  gaugePort: number;
  gaugeTank: number;
  lowStockPct: number;
  coverDaysMin: number;
  waterMaxMm: number;
  updatedAt: string;
}

export type GroundInput = Omit<GroundTank, 'id' | 'stationName' | 'groupName' | 'strapRows' | 'tableCapacity' | 'capacityWarning' | 'updatedAt'> & {
  id?: number;
  strap: StrapRow[];
};

export interface GroundQuery extends PageQuery {
  stationId?: number;
  product?: number;
  name?: string;
}

export interface StationOption {
  id: number;
  stationName: string;
  groupName: string;
  tanks: number;
}

export interface ImportError {
  row: number;
  reason: string;
  message: string;
}

export interface ImportResult {
  rows: StrapRow[];
  errors: ImportError[];
}

/** A stored table: a car's compartment or a ground tank. */
export type StrapRef = { carId: number; no: number } | { tankId: number };

const P = '/base-info-app/tankInfo/';
export const pageCars = (q: CarQuery) => post<Page<CarSummary>>(P + 'carPage', q);
export const getCar = (carId: number) => get<CarView>(P + 'car', { carId });
export const saveCar = (carId: number, compartments: CompartmentInput[]) => post<CarView>(P + 'saveCar', { carId, compartments });
export const pageGround = (q: GroundQuery) => post<Page<GroundTank>>(P + 'groundPage', q);
export const getGround = (id: number) => get<GroundTank>(P + 'ground', { id });
export const addGround = (body: GroundInput) => post<GroundTank>(P + 'groundAdd', body);
export const updateGround = (body: GroundInput & { id: number }) => post<GroundTank>(P + 'groundUpdate', body);
/** No warning here: ConfirmDelete shows the failure. */
export const deleteGround = (id: number) => post<null>(P + 'groundDelete', { id }, false);
export const tankStations = () => get<StationOption[]>(P + 'stations');
/** Reads an xlsx file: its rows, or its wrong rows (nothing is stored). */
export const importStrap = (file: Blob) =>
  call<ImportResult>({ method: 'POST', url: P + 'strapImport', data: file, headers: { 'Content-Type': 'application/octet-stream' } });
export const STRAP_EXPORT = P + 'strapExport';
export const CAR_EXPORT = P + 'carExport';
export const GROUND_EXPORT = P + 'groundExport';
