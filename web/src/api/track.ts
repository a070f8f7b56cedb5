import { get } from './client';

/** Track replay (docs/API.md "Real-time monitoring": GET …/realTimeMoitoring/track). Times in Asia/Shanghai. */

export interface TrackPointDTO {
  time: string;
  lng: number;
  lat: number;
  speed: number;
  direction: number;
  alarm: number;
  status: number;
  mileage: number | null;
}

export interface TrackStopDTO {
  start: string;
  end: string;
  minutes: number;
  lng: number;
  lat: number;
}

export interface TrackAlarmDTO {
  time: string;
  lng: number;
  lat: number;
  speed: number;
  alarm: number;
  names: string[];
}

export interface TrackDTO {
  carId: number;
  plate: string;
  points: TrackPointDTO[];
  stops: TrackStopDTO[];
  alarms: TrackAlarmDTO[];
  truncated: boolean;
}

/** The car's positions over the range (oldest first), its stops and alarm points. */
export const fetchTrack = (carId: number, startTime: string, endTime: string) =>
  get<TrackDTO>('/monitor-app/realTimeMoitoring/track', { carId, startTime, endTime });
