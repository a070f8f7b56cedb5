import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../app/store';
import { call, http } from './client';
import { feedback } from './feedback';

type Reply = { status: number; data: unknown };
let replies: Record<string, Reply>;
let seen: InternalAxiosRequestConfig[];

const adapter: AxiosAdapter = async (config) => {
  seen.push(config);
  const r = replies[config.url ?? ''] ?? { status: 200, data: { code: 1, success: 1, message: 'ok', data: null } };
  const res = { data: r.data, status: r.status, statusText: '', headers: {}, config, request: {} };
  if (r.status >= 400) {
    const err = Object.assign(new Error(`HTTP ${r.status}`), { isAxiosError: true, response: res, config });
    throw err;
  }
  return res;
};

describe('api client', () => {
  beforeEach(() => {
    http.defaults.adapter = adapter;
    replies = {};
    seen = [];
    localStorage.setItem('token', 'tok');
    localStorage.setItem('status', '1');
    localStorage.setItem('nickName', 'n');
    useAppStore.setState({ errorLog: [], pending: 0, loggedIn: true });
    feedback.message = { warning: vi.fn(), error: vi.fn(), success: vi.fn() } as unknown as typeof feedback.message;
    feedback.modal = { warning: vi.fn() } as unknown as typeof feedback.modal;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the Bearer token and returns data for code 1', async () => {
    replies['/x'] = { status: 200, data: { code: 1, success: 1, message: '', data: { a: 1 } } };
    await expect(call({ url: '/x' })).resolves.toEqual({ a: 1 });
    expect(seen[0].headers.Authorization).toBe('Bearer tok');
    expect(useAppStore.getState().pending).toBe(0);
  });

  it('code 0 shows the server message as a warning and throws', async () => {
    replies['/x'] = { status: 200, data: { code: 0, success: 0, message: '账号已存在', data: null } };
    await expect(call({ url: '/x' })).rejects.toThrow('账号已存在');
    expect(feedback.message!.warning).toHaveBeenCalledWith('账号已存在');
  });

  it('401 invalid_token: notice for 2 s, then nickName and status cleared', async () => {
    vi.useFakeTimers();
    replies['/x'] = { status: 401, data: { error: 'invalid_token', error_description: 'expired' } };
    await expect(call({ url: '/x' })).rejects.toBeTruthy();
    expect(feedback.message!.warning).toHaveBeenCalledWith('请重新登录', 2);
    expect(localStorage.getItem('status')).toBe('1');
    vi.advanceTimersByTime(2000);
    expect(localStorage.getItem('status')).toBeNull();
    expect(localStorage.getItem('nickName')).toBeNull();
    expect(useAppStore.getState().loggedIn).toBe(false);
  });

  it("an HTTP error mentioning 'token' opens the prompt modal", async () => {
    replies['/x'] = { status: 400, data: { error: 'bad token format' } };
    await expect(call({ url: '/x' })).rejects.toBeTruthy();
    expect(feedback.modal!.warning).toHaveBeenCalledWith(expect.objectContaining({ title: '提示', content: '登录信息已过期，请重新登录' }));
  });

  it('other HTTP errors are logged and reported, but not those of the logging call', async () => {
    replies['/boom'] = { status: 500, data: 'internal' };
    replies['/authority-app/errorLog/add'] = { status: 500, data: 'down' };
    await expect(call({ url: '/boom' })).rejects.toBeTruthy();
    await new Promise((r) => setTimeout(r, 0));
    const log = useAppStore.getState().errorLog;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'http', code: 500, url: '/boom', token: 'tok' });
    expect(seen.map((c) => c.url)).toEqual(['/boom', '/authority-app/errorLog/add']);
  });
});

describe('403 bursts', () => {
  beforeEach(() => {
    http.defaults.adapter = adapter;
    replies = {};
    seen = [];
    localStorage.setItem('token', 'tok');
    useAppStore.setState({ errorLog: [], pending: 0, loggedIn: true });
  });
  it('every request of a refused page comes back 403: one toast on screen, not one per request', async () => {
    const { App } = await import('antd');
    const { render, screen, act } = await import('@testing-library/react');
    const { createElement } = await import('react');
    function Bridge() {
      const a = App.useApp();
      feedback.message = a.message;
      return null;
    }
    render(createElement(App, null, createElement(Bridge)));
    replies['/a'] = { status: 403, data: { code: 0, success: 0, message: '没有权限执行此操作', data: null } };
    await act(async () => {
      await Promise.allSettled([call({ url: '/a' }), call({ url: '/a' }), call({ url: '/a' })]);
    });
    await screen.findByText('没有权限执行此操作');
    expect(screen.getAllByText('没有权限执行此操作')).toHaveLength(1);
  });
});

describe('the user\'s own zone at the boundary (D90)', () => {
  beforeEach(() => {
    http.defaults.adapter = adapter;
    replies = {};
    seen = [];
  });
  afterEach(() => useAppStore.setState({ session: null }));

  it('sends times on the platform zone and shows answers on the user\'s, following the session', async () => {
    replies['/t'] = { status: 200, data: { code: 1, success: 1, message: '', data: { at: '2026-03-01 08:00:00', day: '2026-03-01' } } };
    const session = { userId: 1, userName: 'admin', timezone: 'Asia/Tokyo' } as unknown as NonNullable<ReturnType<typeof useAppStore.getState>['session']>;
    useAppStore.setState({ session });
    await expect(call({ url: '/t', method: 'POST', data: { startTime: '2026-03-01 09:00:00', n: 1 }, params: { endTime: '2026-03-02 09:00:00' } }))
      .resolves.toEqual({ at: '2026-03-01 09:00:00', day: '2026-03-01' });
    expect(JSON.parse(String(seen[0].data))).toEqual({ startTime: '2026-03-01 08:00:00', n: 1 });
    expect(seen[0].params).toEqual({ endTime: '2026-03-02 08:00:00' });
    useAppStore.setState({ session: { ...session, timezone: '' } });
    await expect(call({ url: '/t', method: 'POST', data: { startTime: '2026-03-01 09:00:00' } })).resolves.toEqual({ at: '2026-03-01 08:00:00', day: '2026-03-01' });
    expect(JSON.parse(String(seen[1].data))).toEqual({ startTime: '2026-03-01 09:00:00' });
  });
});
