import { config } from '../config';
import type { CarCounts, MapCar } from './monitor';

/**
 * The live-data WebSocket (`/ws/live`): positions and counts of the cars in the user's scope.
 *
 * Contract: connect `ws(s)://<host>/ws/live?token=<access_token>&lang=<lang>`; send
 * `{"type":"select","groupId"?,"carIds":[...],"all":bool}`; receive a `snapshot` after each select, then
 * `delta`s (changed cars only, at most every 50 ms), `error` on bad input. The server closes with 4401
 * when the token expires. The stream reconnects by itself (1 s, 2 s, 4 s … at most 10 s) and re-sends the
 * selection each time it is connected again.
 */

export interface LiveSelection {
  groupId?: number;
  carIds?: number[];
  all?: boolean;
  /** Also receive the selected cars' tank data (`tanks`) when their levels or lock state change (tank pages). */
  tanks?: boolean;
}

/** One compartment's reading in a `tanks` entry: [no, levelMm, volumeL, v20L, tempDeci, source, massKg]. */
export type LiveTankRow = [number, number, number, number, number, number, number];

/** A car's tank data as the stream sends it (only with `tanks: true`, only when it changed). */
export interface LiveTank {
  carId: number;
  /** ms; 0 = no lock state yet */
  lockTime: number;
  /** the 128-character lock-state string ('' = none) */
  lock: string;
  seal: number;
  /** ms; 0 = no level report yet */
  levelTime: number;
  c: LiveTankRow[];
}

export interface LiveSnapshot {
  type: 'snapshot';
  cars: MapCar[];
  counts: CarCounts;
  time: string;
  /** present only for a selection with `tanks: true` */
  tanks?: LiveTank[];
}

export interface LiveDelta {
  type: 'delta';
  cars: MapCar[];
  counts: CarCounts;
  time: string;
  tanks?: LiveTank[];
}

export interface LiveError {
  type: 'error';
  message: string;
}

export type LiveMessage = LiveSnapshot | LiveDelta | LiveError;

/**
 * idle: not started; connecting: first attempt; open: connected and selection sent; reconnecting:
 * waiting to try again; unauthorized: the server said the token expired (4401), no more tries;
 * forbidden: the user lost the monitoring permission (4403), no more tries; closed: stopped by the page.
 */
export type LiveState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'forbidden' | 'closed';

/** Close code the server uses when the session token expires. */
export const CLOSE_TOKEN_EXPIRED = 4401;
/** Close code when the user no longer holds the monitoring permission. */
export const CLOSE_FORBIDDEN = 4403;
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 10000;

/** Delay before reconnect attempt `n` (0-based): 1 s, 2 s, 4 s, 8 s, then 10 s. */
export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempt));
}

/** The stream's address: same host as the console (or the configured API base), ws for http, wss for https. */
export function liveUrl(token: string, lang: string, apiBase: string = config.apiBase, loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const q = `token=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`;
  if (/^https?:\/\//i.test(apiBase)) {
    return `${apiBase.replace(/^http/i, 'ws').replace(/\/$/, '')}/ws/live?${q}`;
  }
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}${apiBase.replace(/\/$/, '')}/ws/live?${q}`;
}

export function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== 'string') return null;
  let m: unknown;
  try {
    m = JSON.parse(data);
  } catch {
    return null;
  }
  if (!m || typeof m !== 'object') return null;
  const msg = m as Record<string, unknown>;
  if ((msg.type === 'snapshot' || msg.type === 'delta') && Array.isArray(msg.cars)) {
    return {
      type: msg.type,
      cars: msg.cars as MapCar[],
      counts: (msg.counts && typeof msg.counts === 'object' ? msg.counts : {}) as CarCounts,
      time: typeof msg.time === 'string' ? msg.time : '',
      ...(Array.isArray(msg.tanks) ? { tanks: msg.tanks as LiveTank[] } : {}),
    };
  }
  if (msg.type === 'error') return { type: 'error', message: typeof msg.message === 'string' ? msg.message : '' };
  return null;
}

/** The part of the WebSocket constructor the stream uses (a fake one in tests). */
export type SocketFactory = new (url: string) => WebSocket;

export interface LiveStreamOptions {
  /** Builds the URL of each attempt (the token may change between attempts). */
  url: () => string;
  onMessage: (m: LiveMessage) => void;
  onState?: (s: LiveState) => void;
  /** Called once when the server closes with 4401 (token expired). */
  onUnauthorized?: () => void;
  WebSocket?: SocketFactory;
}

export class LiveStream {
  private ws: WebSocket | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private selection: LiveSelection | null = null;
  private stopped = true;
  private _state: LiveState = 'idle';

  constructor(private readonly opts: LiveStreamOptions) {}

  get state(): LiveState {
    return this._state;
  }

  /** Starts connecting (no-op when already started). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempt = 0;
    this.setState('connecting');
    this.connect();
  }

  /** Sets what the stream should send; sent now when connected, and again after every reconnect. */
  select(selection: LiveSelection): void {
    this.selection = selection;
    this.sendSelection();
  }

  /** Closes the socket and stops reconnecting. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close(1000);
      } catch {
        // already closing
      }
    }
    this.setState('closed');
  }

  private setState(s: LiveState): void {
    if (this._state === s) return;
    this._state = s;
    this.opts.onState?.(s);
  }

  private sendSelection(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1 || !this.selection) return;
    ws.send(JSON.stringify({ type: 'select', ...this.selection }));
  }

  private connect(): void {
    const Ctor = this.opts.WebSocket ?? WebSocket;
    let ws: WebSocket;
    try {
      ws = new Ctor(this.opts.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.setState('open');
      this.sendSelection();
    };
    ws.onmessage = (ev: MessageEvent) => {
      const m = parseLiveMessage(ev.data);
      if (!m) return;
      // A message proves the connection works: the next failure starts again at 1 s.
      this.attempt = 0;
      this.opts.onMessage(m);
    };
    ws.onerror = () => {
      // onclose follows and decides what to do
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (ev.code === CLOSE_TOKEN_EXPIRED) {
        this.stopped = true;
        this.setState('unauthorized');
        this.opts.onUnauthorized?.();
        return;
      }
      if (ev.code === CLOSE_FORBIDDEN) {
        this.stopped = true;
        this.setState('forbidden');
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.setState('reconnecting');
    const delay = backoffDelay(this.attempt++);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }
}
