import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, CLOSE_FORBIDDEN, CLOSE_TOKEN_EXPIRED, LiveStream, liveUrl, parseLiveMessage, type LiveMessage, type LiveState, type SocketFactory } from './liveStream';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // test side
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: typeof msg === 'string' ? msg : JSON.stringify(msg) } as MessageEvent);
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  static last() {
    return FakeSocket.all[FakeSocket.all.length - 1];
  }
}

const snapshot = {
  type: 'snapshot',
  cars: [{ carId: 1, plate: '沪A·6N337', lng: 121.4737, lat: 31.2304, speed: 65.5, direction: 90, code: 4, abnormal: false, time: '2026-03-01 15:59:59' }],
  counts: { '8': 1, '4': 1, '5': 0, '7': 0, '3': 0 },
  time: '2026-03-01 16:00:00',
};

function makeStream() {
  const messages: LiveMessage[] = [];
  const states: LiveState[] = [];
  const onUnauthorized = vi.fn();
  let n = 0;
  const stream = new LiveStream({
    url: () => `ws://h/ws/live?token=t${++n}&lang=zh-CN`,
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    onUnauthorized,
    WebSocket: FakeSocket as unknown as SocketFactory,
  });
  return { stream, messages, states, onUnauthorized };
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('doubles from 1 s up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });
});

describe('liveUrl', () => {
  it('uses the page host with ws or wss and carries token and language', () => {
    expect(liveUrl('a b', 'zh-CN', '', { protocol: 'http:', host: '127.0.0.1:18300' })).toBe('ws://127.0.0.1:18300/ws/live?token=a%20b&lang=zh-CN');
    expect(liveUrl('tok', 'en-US', '', { protocol: 'https:', host: 'tw.example' })).toBe('wss://tw.example/ws/live?token=tok&lang=en-US');
  });
  it('follows an absolute API base', () => {
    expect(liveUrl('tok', 'zh-TW', 'https://api.example/', { protocol: 'http:', host: 'x' })).toBe('wss://api.example/ws/live?token=tok&lang=zh-TW');
  });
});

describe('parseLiveMessage', () => {
  it('reads snapshot, delta and error; ignores anything else', () => {
    expect(parseLiveMessage(JSON.stringify(snapshot))).toMatchObject({ type: 'snapshot', cars: snapshot.cars });
    expect(parseLiveMessage('{"type":"delta","cars":[],"counts":{"8":3}}')).toEqual({ type: 'delta', cars: [], counts: { '8': 3 }, time: '' });
    expect(parseLiveMessage('{"type":"error","message":"bad"}')).toEqual({ type: 'error', message: 'bad' });
    expect(parseLiveMessage('not json')).toBeNull();
    expect(parseLiveMessage('{"type":"hello"}')).toBeNull();
    expect(parseLiveMessage(new ArrayBuffer(2))).toBeNull();
  });
});

describe('LiveStream', () => {
  it('sends the selection once open and delivers snapshot and deltas', () => {
    const { stream, messages, states } = makeStream();
    stream.start();
    stream.select({ all: true, carIds: [] });
    const ws = FakeSocket.last();
    expect(ws.url).toBe('ws://h/ws/live?token=t1&lang=zh-CN');
    expect(ws.sent).toEqual([]); // not open yet
    ws.open();
    expect(ws.sent.map((s) => JSON.parse(s))).toEqual([{ type: 'select', all: true, carIds: [] }]);
    ws.receive(snapshot);
    ws.receive({ type: 'delta', cars: [], counts: { '8': 1 }, time: 't' });
    expect(messages.map((m) => m.type)).toEqual(['snapshot', 'delta']);
    expect(states).toEqual(['connecting', 'open']);
    stream.select({ carIds: [1, 2], all: false });
    expect(JSON.parse(ws.sent[1])).toEqual({ type: 'select', carIds: [1, 2], all: false });
  });

  it('reconnects after 1 s, 2 s, 4 s, 8 s, 10 s, 10 s and re-sends the selection', () => {
    const { stream, states } = makeStream();
    stream.start();
    stream.select({ carIds: [7], all: false });
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = FakeSocket.all.length;
      FakeSocket.last().drop();
      let waited = 0;
      while (FakeSocket.all.length === before) {
        vi.advanceTimersByTime(100);
        waited += 100;
        if (waited > 60_000) throw new Error('no reconnect');
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
    expect(states).toEqual(['connecting', 'reconnecting']);
    const ws = FakeSocket.last();
    ws.open();
    expect(JSON.parse(ws.sent[0])).toEqual({ type: 'select', carIds: [7], all: false });
    expect(stream.state).toBe('open');
  });

  it('starts again at 1 s once a message has come through', () => {
    const { stream } = makeStream();
    stream.start();
    FakeSocket.last().drop();
    vi.advanceTimersByTime(1000);
    FakeSocket.last().drop();
    vi.advanceTimersByTime(2000);
    const ws = FakeSocket.last();
    ws.open();
    ws.receive(snapshot);
    const count = FakeSocket.all.length;
    ws.drop();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all.length).toBe(count);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all.length).toBe(count + 1);
  });

  it('stops for good on 4401 (token expired) and reports it once', () => {
    const { stream, onUnauthorized, states } = makeStream();
    stream.start();
    const ws = FakeSocket.last();
    ws.open();
    ws.drop(CLOSE_TOKEN_EXPIRED);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(states.at(-1)).toBe('unauthorized');
  });

  it('stops for good on 4403 (monitoring permission gone)', () => {
    const { stream, onUnauthorized, states } = makeStream();
    stream.start();
    FakeSocket.last().open();
    FakeSocket.last().drop(CLOSE_FORBIDDEN);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(states.at(-1)).toBe('forbidden');
  });

  it('stop() closes the socket and cancels a pending reconnect', () => {
    const { stream, states } = makeStream();
    stream.start();
    FakeSocket.last().drop();
    stream.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(states.at(-1)).toBe('closed');

    stream.start();
    const ws = FakeSocket.last();
    ws.open();
    stream.stop();
    expect(ws.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });
});
