import { call } from './client';
import type { GaugeState, GroundStatus } from './groundTank';

/** The liquid-level cockpit's summary (docs/API.md "Liquid-level cockpit", DECISIONS D39). */

export type TruckState = 'loading' | 'unloading' | 'loaded' | 'empty' | 'unknown';
export type Band = 'empty' | 'low' | 'mid' | 'high' | 'unknown';

export interface BandCount {
  band: Band;
  count: number;
  volume: number;
}

export interface ActiveTruck {
  carId: number;
  carNumber: string;
  groupName: string;
  state: 'loading' | 'unloading';
  stationId: number;
  stationName: string;
  stationType: string;
  volume: number;
  capacity: number;
  /** litres per minute (+ rising, − falling); null while not known */
  rate: number | null;
  levelTime: number;
}

/** A station tank as the cockpit gets it: tank.GroundStatus, without the gauge address. */
export type GroundTank = Omit<GroundStatus, 'gauge' | 'gaugeTank'>;

export interface CockpitAlarm {
  id: number;
  carId: number;
  carNumber: string;
  type: string;
  typeName: string;
  level: number;
  time: string | null;
  endTime: string | null;
  state: number;
  place: string;
  lng: number;
  lat: number;
  located: boolean;
  detail: string;
}

export interface CockpitSummary {
  serverTime: string | null;
  trucks: {
    total: number;
    online: number;
    counts: Record<TruckState, number>;
    ids: Record<TruckState, number[]>;
    idsCut: boolean;
    active: ActiveTruck[];
    activeCut: boolean;
  };
  compartments: {
    total: number;
    bands: BandCount[];
    volume: number;
    v20: number;
    capacity: number;
    known: number;
    stale: number;
    cars: number;
  };
  stationTanks: {
    available: boolean;
    total: number;
    bands: BandCount[];
    gauges: Record<GaugeState, number>;
    volume: number;
    capacity: number;
    lowStock: number;
    lowCover: number;
    low: GroundTank[];
    tanks: GroundTank[];
    tanksCut: boolean;
  };
  alarms: {
    open: number;
    recent: number;
    list: CockpitAlarm[];
  };
}

export function cockpitSummary(groupId?: number): Promise<CockpitSummary> {
  return call<CockpitSummary>({ method: 'POST', url: '/monitor-app/cockpit/summary', data: groupId ? { groupId } : {}, silent: true });
}
