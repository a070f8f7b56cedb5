import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';

class FakeClient extends EventEmitter {
  connected = false;
  publish = vi.fn();
  subscribe = vi.fn();
  end = vi.fn();
}
const state = vi.hoisted(() => ({ clients: [] as unknown[], calls: [] as [string, Record<string, unknown>][], failures: 0 }));

vi.mock('mqtt', () => ({
  connect: (url: string, opts: Record<string, unknown>) => {
    if (state.failures > 0) {
      state.failures--;
      throw new Error('library not ready');
    }
    const c = new FakeClient();
    state.clients.push(c);
    state.calls.push([url, opts]);
    return c;
  },
}));
const shown = vi.hoisted(() => vi.fn());
const pump = vi.hoisted(() => vi.fn());
vi.mock('./liveDialogs', () => ({ showLiveMessage: shown, pump }));

import { brokerUrl, liveConnection } from './live';

const last = () => state.clients[state.clients.length - 1] as FakeClient;
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await vi.dynamicImportSettled();
};

describe('live connection', () => {
  beforeEach(() => {
    state.clients.length = 0;
    state.calls.length = 0;
    state.failures = 0;
    shown.mockReset();
    localStorage.setItem('token', 'tok-7');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    liveConnection.offline();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('connects to /mqtt of the page host with the spec options', async () => {
    liveConnection.online(7);
    await flush();
    expect(state.calls).toHaveLength(1);
    const [url, opts] = state.calls[0];
    expect(url).toBe(brokerUrl());
    expect(url).toMatch(/^ws:\/\/.+\/mqtt$/);
    expect(opts).toMatchObject({ username: '7', password: 'tok-7', connectTimeout: 4000, reconnectPeriod: 2000, clean: true });
    expect(opts.clientId).toMatch(/^web_7_\d+$/);
    expect(opts.will).toMatchObject({ topic: 'offline/user/7' });
  });

  it('wss on https', () => {
    expect(brokerUrl({ protocol: 'https:', host: 'a.example:8443' })).toBe('wss://a.example:8443/mqtt');
  });

  it('subscribes on connect and announces online once subscribed; messages go to the dialogs', async () => {
    liveConnection.online('7');
    await flush();
    // unread messages kept from before a reload open again (read ones do not)
    expect(pump).toHaveBeenCalled();
    const c = last();
    c.connected = true;
    c.emit('connect');
    expect(c.subscribe.mock.calls[0][0]).toEqual(['msg/user/7', 'requestHelp/user/7']);
    expect(c.publish).not.toHaveBeenCalledWith('online/user/7', '7', { qos: 0 });
    c.subscribe.mock.calls[0][2](null); // the broker granted the subscription
    expect(c.publish).toHaveBeenCalledWith('online/user/7', '7', { qos: 0 });
    const payload = new TextEncoder().encode('{"message":"x"}');
    c.emit('message', 'msg/user/7', payload);
    expect(shown).toHaveBeenCalledWith('msg/user/7', payload);
  });

  it('a second online for the same user keeps the connection', async () => {
    liveConnection.online(7);
    await flush();
    liveConnection.online('7');
    await flush();
    expect(state.calls).toHaveLength(1);
  });

  it('offline publishes offline/user/{id} and ends', async () => {
    liveConnection.online(7);
    await flush();
    const c = last();
    c.connected = true;
    liveConnection.offline();
    expect(c.publish).toHaveBeenCalledWith('offline/user/7', '7', { qos: 0 });
    expect(c.end).toHaveBeenCalled();
  });

  it('start-up is retried every 3000 ms until it succeeds; errors are only logged', async () => {
    vi.useFakeTimers();
    state.failures = 2;
    expect(() => liveConnection.online(7)).not.toThrow();
    await flush();
    expect(state.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2999);
    expect(state.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    await vi.advanceTimersByTimeAsync(3000);
    await flush();
    expect(state.calls).toHaveLength(1);
    const c = last();
    expect(() => c.emit('error', new Error('refused'))).not.toThrow();
    expect(console.warn).toHaveBeenCalled();
  });

  it('offline before the start completes cancels it', async () => {
    liveConnection.online(7);
    liveConnection.offline();
    await flush();
    expect(state.calls).toHaveLength(0);
  });

  it('ignores an empty user id', async () => {
    liveConnection.online('');
    await flush();
    expect(state.calls).toHaveLength(0);
  });
});
