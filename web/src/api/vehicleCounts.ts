import { call } from './client';
import type { Page } from './types';
import type { Counts, CountCode } from '../lib/cockpit';

/** The cockpit's calls (docs/API.md "Real-time monitoring"), silent: they poll in the background. */

export function carCount(groupId?: number): Promise<Counts> {
  return call<Counts>({ method: 'GET', url: '/monitor-app/realTimeMoitoring/carCount', params: groupId ? { groupId } : {}, silent: true });
}

/** A live car as findCars lists it (the fields the cockpit shows). */
export interface LiveCarRow {
  carId: number;
  plate: string;
  groupName: string;
  driverName: string;
  code: number;
  online: boolean;
  abnormal: boolean;
  speed: number;
  time: string | null;
  received: string | null;
  alarm: number;
  seal: number;
}

export function findCarsByCode(code: CountCode, pageSize: number): Promise<Page<LiveCarRow>> {
  return call<Page<LiveCarRow>>({
    method: 'POST',
    url: '/monitor-app/realTimeMoitoring/findCars',
    data: { code, pageNum: 1, pageSize },
    silent: true,
  });
}
