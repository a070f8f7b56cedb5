import axios, { AxiosError, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { config } from '../config';
import i18n from '../i18n';
import { STORAGE, useAppStore } from '../app/store';
import { displayZoneName, platformZoneName, shiftWalls } from '../lib/zone';
import { feedback, warn, warnOnce } from './feedback';
import type { Envelope } from './types';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not show the blocking 'processing...' spinner for this call (background polling, logging). */
    silent?: boolean;
  }
}

/** The single axios instance: base URL from config, Bearer token, spinner and error interceptors. */
export const http = axios.create({ baseURL: config.apiBase, timeout: 120000 });

http.interceptors.request.use((req: InternalAxiosRequestConfig) => {
  const token = localStorage.getItem(STORAGE.token);
  if (token) req.headers.set('Authorization', `Bearer ${token}`);
  req.headers.set('Accept-Language', i18n.language || 'zh-CN');
  if (!req.silent) useAppStore.getState().requestStarted();
  return req;
});

// The user's own zone (D90): the server reads and writes times on the platform's zone, the console shows
// and takes them on the user's, so times cross here — into the platform's zone on the way out, back on
// the way in. Nothing changes for a user without a zone of their own.
http.interceptors.request.use((req: InternalAxiosRequestConfig) => {
  const from = displayZoneName();
  const to = platformZoneName();
  if (from !== to) {
    if (req.params) req.params = shiftWalls(req.params, from, to);
    if (req.data && typeof req.data === 'object' && Object.getPrototypeOf(req.data) === Object.prototype) req.data = shiftWalls(req.data, from, to);
  }
  return req;
});
http.interceptors.response.use((res: AxiosResponse) => {
  if (res.data && typeof res.data === 'object' && !(res.data instanceof Blob) && !(res.data instanceof ArrayBuffer)) {
    res.data = shiftWalls(res.data, platformZoneName(), displayZoneName());
  }
  return res;
});

let invalidTokenHandled = false;
let expiredModalOpen = false;

function isErrorLogCall(url: string | undefined): boolean {
  return !!url && url.includes(config.errorLogPath);
}

/** Spec §8: 401 invalid_token → notice for 2 s, then nickName and status cleared and back to root. */
export function handleInvalidToken(): void {
  if (invalidTokenHandled) return;
  invalidTokenHandled = true;
  warnFor(i18n.t('auth.pleaseLogInAgain'), 2);
  window.setTimeout(() => {
    localStorage.removeItem(STORAGE.nickName);
    localStorage.removeItem(STORAGE.status);
    useAppStore.setState({ loggedIn: false });
    invalidTokenHandled = false;
    window.location.hash = '#/';
  }, 2000);
}

function warnFor(text: string, seconds: number): void {
  if (feedback.message) void feedback.message.warning(text, seconds);
  else console.warn(text);
}

/** Spec §8: an HTTP error whose error text mentions 'token' → 'prompt' modal; OK clears storage and reloads. */
function handleExpired(): void {
  if (expiredModalOpen) return;
  expiredModalOpen = true;
  const onOk = () => {
    localStorage.clear();
    window.location.reload();
  };
  if (feedback.modal) {
    feedback.modal.warning({ title: i18n.t('common.prompt'), content: i18n.t('auth.loginExpired'), okText: i18n.t('common.ok'), onOk });
  } else onOk();
}

function errorText(data: unknown): string {
  if (!data || typeof data !== 'object') return typeof data === 'string' ? data : '';
  const d = data as Record<string, unknown>;
  return [d.error, d.error_description, d.message].filter((x) => typeof x === 'string').join(' ');
}

/** Records an error in the session's error log and reports it to the server (never for the logging call). */
export function logError(type: 'http' | 'script' | 'connection', code: number, message: string, url: string): void {
  const entry = useAppStore.getState().addError({ type, code, message, url });
  if (type === 'connection') return; // spec §8: connection errors are only logged
  void http
    .post(config.errorLogPath, { type, code, message, url, time: entry.time }, { silent: true })
    .catch(() => undefined);
}

http.interceptors.response.use(
  (res: AxiosResponse) => {
    if (!res.config.silent) useAppStore.getState().requestFinished();
    return res;
  },
  (err: AxiosError) => {
    const cfg = err.config;
    if (cfg && !cfg.silent) useAppStore.getState().requestFinished();
    if (isErrorLogCall(cfg?.url)) return Promise.reject(err);
    const res = err.response;
    if (!res) {
      if (!axios.isCancel(err)) logError('connection', 0, err.message, cfg?.url ?? '');
      return Promise.reject(err);
    }
    const data = res.data as Record<string, unknown> | undefined;
    if (res.status === 401 && data && data.error === 'invalid_token') {
      handleInvalidToken();
      return Promise.reject(err);
    }
    const text = errorText(data);
    if (/token/i.test(text)) {
      handleExpired();
      return Promise.reject(err);
    }
    logError('http', res.status, text || err.message, cfg?.url ?? '');
    return Promise.reject(err);
  },
);

/** Raised after the server's message has been shown for a code ≠ 1 envelope. */
export class BusinessError extends Error {
  constructor(message: string, readonly envelope: Envelope) {
    super(message);
    this.name = 'BusinessError';
  }
}

export function isOk(body: Envelope | undefined | null): boolean {
  return !!body && (body.code === 1 || body.success === 1);
}

/**
 * Spec §7: a body with code 1 is success; otherwise the server message is shown as a warning
 * (unless `show` is false) and a BusinessError is thrown. HTTP 4xx with an envelope is treated alike.
 */
export async function call<T>(req: AxiosRequestConfig, show = true): Promise<T> {
  let body: Envelope<T>;
  try {
    body = (await http.request<Envelope<T>>(req)).data;
  } catch (e) {
    const env = (e as AxiosError<Envelope<T>>).response?.data;
    if (env && typeof env === 'object' && 'code' in env) {
      // 403s come in bursts (every request of a page outside the role): one toast, not a stream
      const status = (e as AxiosError).response?.status;
      if (show && env.message) {
        if (status === 403) warnOnce('forbidden', env.message);
        else warn(env.message);
      }
      throw new BusinessError(env.message ?? '', env as Envelope);
    }
    throw e;
  }
  if (!isOk(body)) {
    if (show && body?.message) warn(body.message);
    throw new BusinessError(body?.message ?? '', body as Envelope);
  }
  return body.data;
}

/** Like call() but returns the whole envelope without showing anything (caller decides). */
export async function raw<T>(req: AxiosRequestConfig): Promise<Envelope<T>> {
  try {
    return (await http.request<Envelope<T>>(req)).data;
  } catch (e) {
    const env = (e as AxiosError<Envelope<T>>).response?.data;
    if (env && typeof env === 'object' && 'code' in env) return env;
    throw e;
  }
}

export const get = <T>(url: string, params?: Record<string, unknown>, show = true) => call<T>({ method: 'GET', url, params }, show);
export const post = <T>(url: string, data?: unknown, show = true) => call<T>({ method: 'POST', url, data }, show);
