import type { MqttClient } from 'mqtt';
import { STORAGE } from './store';

/**
 * The live messaging connection (spec §4, §7, §8, §9): MQTT over WebSocket to the node's own /mqtt,
 * username = user id, password = session token. On connect it announces the user online and subscribes
 * msg/user/{id} and requestHelp/user/{id}; the will and offline() announce offline/user/{id}. mqtt.js
 * itself reconnects every 2 s; if the client cannot even be created (library not loaded) start-up is
 * retried every 3 s. Connection errors are only logged. Nothing here throws.
 *
 * mqtt.js and the dialogs are loaded on first use so the login route stays within its JS budget.
 */
export const LIVE = {
  connectTimeout: 4000,
  reconnectPeriod: 2000,
  startupRetry: 3000,
} as const;

export const topics = {
  online: (id: string) => `online/user/${id}`,
  offline: (id: string) => `offline/user/${id}`,
  msg: (id: string) => `msg/user/${id}`,
  requestHelp: (id: string) => `requestHelp/user/${id}`,
};

export function brokerUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/mqtt`;
}

/** Called with every live message after the dialogs had it (the video wall follows alarms). */
export type LiveListener = (topic: string, payload: Uint8Array) => void;
const listeners = new Set<LiveListener>();

/** Adds a listener of the live messages; returns its removal. */
export function onLiveMessage(fn: LiveListener): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

let client: MqttClient | null = null;
let current: string | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
let generation = 0;

function log(...args: unknown[]): void {
  console.warn('[live]', ...args);
}

async function start(userId: string, gen: number): Promise<void> {
  retry = null;
  try {
    const [mod, dialogs] = await Promise.all([import('mqtt'), import('./liveDialogs')]);
    // the browser bundle of mqtt.js exports connect on its default export only
    const connect = typeof mod.connect === 'function' ? mod.connect : (mod.default as unknown as typeof mod).connect;
    if (gen !== generation) return; // offline() or another user came first
    // what arrived before a reload and was not read yet opens again (what was read does not)
    dialogs.pump();
    const c = connect(brokerUrl(), {
      username: userId,
      password: localStorage.getItem(STORAGE.token) ?? '',
      connectTimeout: LIVE.connectTimeout,
      reconnectPeriod: LIVE.reconnectPeriod,
      clean: true,
      clientId: `web_${userId}_${Date.now()}`,
      // mochi refuses a will without payload; the payload is the user id, like the topic's
      will: { topic: topics.offline(userId), payload: userId, qos: 0, retain: false },
    });
    client = c;
    c.on('connect', () => {
      // online is announced once the console listens: a message sent to a user shown online must
      // reach this console live
      c.subscribe([topics.msg(userId), topics.requestHelp(userId)], { qos: 1 }, (err) => {
        if (err) log('subscribe failed', err);
        else c.publish(topics.online(userId), userId, { qos: 0 });
      });
    });
    c.on('message', (topic, payload) => {
      try {
        dialogs.showLiveMessage(topic, payload);
      } catch (e) {
        log('message not shown', e);
      }
      for (const fn of listeners) {
        try {
          fn(topic, payload);
        } catch (e) {
          log('listener failed', e);
        }
      }
    });
    c.on('error', (e) => log('connection error', e?.message ?? e));
  } catch (e) {
    log('start failed, retrying', e);
    if (gen === generation) retry = setTimeout(() => void start(userId, gen), LIVE.startupRetry);
  }
}

function stop(): void {
  generation++;
  if (retry) clearTimeout(retry);
  retry = null;
  const c = client;
  const id = current;
  client = null;
  current = null;
  if (!c) return;
  try {
    if (id && c.connected) c.publish(topics.offline(id), id, { qos: 0 });
    c.end(false);
  } catch (e) {
    log('end failed', e);
  }
}

export const liveConnection = {
  /** Connects for userId (signed in, or the shell mounted with a session); a second call for the same user does nothing. */
  online(userId: string | number): void {
    try {
      const id = String(userId ?? '');
      if (!id) return;
      if (current === id) return;
      stop();
      current = id;
      void start(id, generation);
    } catch (e) {
      log('online failed', e);
    }
  },
  /** Announces offline and closes (logout, before local storage is cleared). */
  offline(): void {
    try {
      stop();
    } catch (e) {
      log('offline failed', e);
    }
  },
};
