import { config } from '../config';
import { get, post } from './client';

/** A live stream of a car's channel (docs/API.md, Live video). */
export interface LiveStreamInfo {
  token: string;
  carId: number;
  plate: string;
  channelNo: number;
  flvUrl: string;
  audioUrl: string;
  startedAt: string;
  viewers: number;
  receiving: boolean;
}

export interface StopResult {
  carId: number;
  channelNo: number;
  stopped: boolean;
  viewers: number;
}

/** Opens (or joins) a channel's stream; failures carry `data.reason` (no toast: the tile says it). */
export const doVisual = (carId: number, channelNo: number) => get<LiveStreamInfo>('/base-info-app/carInfo/doVisual', { carId, channelNo }, false);
export const stopLiveVideo = (carId: number, channelNo: number) => post<StopResult[]>('/base-info-app/carInfo/stopLiveVideo', { carId, channelNo }, false);
export const stopLiveVideos = (carIds: number[]) => post<StopResult[]>('/base-info-app/carInfo/stopLiveVideos', { carIds }, false);
export const reportLiveVideos = (carId?: number) => post<LiveStreamInfo[]>('/base-info-app/carInfo/reportLiveVideos', carId ? { carId } : {}, false);

/**
 * The WebSocket address of a stream's `flvUrl` or `audioUrl` with the viewer's access token as `?token=`
 * (browsers cannot set headers on a WebSocket).
 */
export function mediaSocketUrl(path: string, token: string, apiBase: string = config.apiBase, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const q = `token=${encodeURIComponent(token)}`;
  if (/^https?:\/\//i.test(apiBase)) return `${apiBase.replace(/^http/i, 'ws').replace(/\/$/, '')}${path}?${q}`;
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${apiBase.replace(/\/$/, '')}${path}?${q}`;
}
