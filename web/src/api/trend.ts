import { get, post } from './client';

/**
 * Level trends (docs/API.md "Level trends", DECISIONS D38): a car's compartments (levelChart) and a
 * station ground tank (hbase/levelChart2). Times are Unix ms; a series is a time column `t` and value
 * columns `v`, null marking a gap (no reading for longer than gapMs).
 */
export interface SeriesDTO {
  t: number[];
  v: (number | null)[][];
}

export interface CompSeriesDTO {
  no: number;
  product: number;
  capacityL: number;
  heightMm: number;
  readings: number;
  /** v[0] level mm, v[1] volume L, v[2] V20 L, v[3] temperature °C */
  series: SeriesDTO;
}

export interface ValveDTO {
  t: number;
  compartment: number;
  kind: number;
  prev: number;
  state: number;
  stationName: string;
}

export interface CarEventDTO {
  id: number;
  kind: string;
  compartment: number;
  startAt: number;
  endAt: number | null;
  beforeL: number;
  afterL: number;
  stationName: string;
}

export interface FenceDTO {
  t: number;
  kind: 'fenceIn' | 'fenceOut';
  name: string;
}

export interface CarChartDTO {
  carId: number;
  plate: string;
  start: number;
  end: number;
  bucketMs: number;
  gapMs: number;
  compartments: CompSeriesDTO[];
  /** v[0] km/h */
  speed: SeriesDTO;
  valves: ValveDTO[];
  events: CarEventDTO[];
  fences: FenceDTO[];
  truncated: boolean;
}

export interface PositionDTO {
  t: number;
  lat: number;
  lon: number;
  speed: number;
  address: string;
}

export interface DeliveryDTO {
  startAt: number;
  endAt: number;
  startL: number;
  endL: number;
}

export interface TankChartDTO {
  tankId: number;
  tankNo: number;
  name: string;
  stationId: number;
  stationName: string;
  product: number;
  capacityL: number;
  heightMm: number;
  start: number;
  end: number;
  bucketMs: number;
  salesMs: number;
  gapMs: number;
  readings: number;
  /** v[0] volume L, v[1] V20 L, v[2] height mm, v[3] water mm, v[4] temperature °C */
  series: SeriesDTO;
  /** v[0] sales rate L/h per bucket */
  sales: SeriesDTO;
  deliveries: DeliveryDTO[];
  truncated: boolean;
}

export interface TankRefDTO {
  id: number;
  stationId: number;
  stationName: string;
  tankNo: number;
  name: string;
  product: number;
  capacityL: number;
}

const M = '/monitor-app/realTimeMoitoring/';

export const levelChart = (q: { carId: number; start: number; end: number; maxPoints?: number }) => post<CarChartDTO>(M + 'levelChart', q);
export const positionAt = (carId: number, t: number) => get<PositionDTO | null>(M + 'positionAt', { carId, t });
export const levelChart2 = (q: { tankId: number; start: number; end: number; maxPoints?: number }) => get<TankChartDTO>('/hbase/levelChart2', q);
export const groundTanks = () => get<TankRefDTO[]>('/hbase/levelChart2/tanks');
