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
  /** Percent of the device's packets lost in the server's last 10 s (0x9105). */
  loss: number;
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

/** A recording a terminal keeps (docs/API.md, Video replay). Times in Asia/Shanghai. */
export interface Recording {
  channelNo: number;
  startTime: string;
  endTime: string;
  alarm: string;
  mediaType: number;
  streamType: number;
  storageType: number;
  size: number;
}

/** A playback of a recording: its own token and FLV socket. */
export interface ReplayInfo {
  token: string;
  carId: number;
  plate: string;
  channelNo: number;
  flvUrl: string;
  /** G.711 over WebSocket, as live's (AAC comes inside the FLV); absent from servers before D88. */
  audioUrl?: string;
  startTime: string;
  endTime: string;
  paused: boolean;
  speed: number;
  receiving: boolean;
}

export type ReplayCommand = 'pause' | 'resume' | 'speed' | 'seek' | 'stop';

/** Asks the terminal for its recordings of one channel (0: every channel) in a range (0x9205 → 0x1205). */
export const sendGetVideoList = (carId: number, channelNo: number, startTime: string, endTime: string) =>
  post<Recording[]>('/base-info-app/carInfo/sendGetVideoList', { carId, channelNo, startTime, endTime });
/** Plays a channel's recording from startTime to endTime (0x9201). */
export const historyVideo = (carId: number, channelNo: number, startTime: string, endTime: string, toast = true) =>
  get<ReplayInfo>('/base-info-app/carInfo/historyVideo', { carId, channelNo, startTime, endTime }, toast);
/** Pauses, resumes, changes the speed of, seeks (position: Unix ms) or stops a playback (0x9202). */
export const historyVideoControl = (carId: number, token: string, command: ReplayCommand, extra: { speed?: number; position?: number } = {}, toast = true) =>
  post<ReplayInfo>('/base-info-app/carInfo/historyVideoControl', { carId, token, command, ...extra }, toast);
/** Asks the terminal for its recordings of several channels in a range (videoReplaying2). */
export const historyVideoByTime2 = (carId: number, channels: number[], startTime: string, endTime: string) =>
  post<Recording[]>('/base-info-app/carInfo/historyVideoByTime2', { carId, channels, startTime, endTime }, false);
