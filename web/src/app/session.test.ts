import { beforeEach, describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ logIn: vi.fn(), findTreesForLogin: vi.fn(), logOut: vi.fn(), currentSession: vi.fn() }));
vi.mock('../api/auth', () => api);
const feedback = vi.hoisted(() => ({ warn: vi.fn() }));
vi.mock('../api/feedback', () => feedback);

import { applyLang, currentLang } from '../i18n';
import { signIn } from './session';
import { NO_PERMISSION } from '../lib/menuFilter';
import { STORAGE, useAppStore } from './store';

const session = { userId: 7, userName: 'wang', userNickName: 'W', access_token: 'tok', groupId: 1, topGroupId: 1 };
const menu = [{ name: 'home', code: '01', title: '首页', path: '/home', children: [] }];

beforeEach(() => {
  localStorage.clear();
  Object.values(api).forEach((f) => f.mockReset());
  feedback.warn.mockReset();
});

describe('signIn (spec §4, §5, §6)', () => {
  it('trims the account and stores the session on success', async () => {
    api.logIn.mockResolvedValue({ code: 1, data: session });
    api.findTreesForLogin.mockResolvedValue(menu);
    await expect(signIn('  wang  ', 'pw')).resolves.toEqual({ ok: true });
    expect(api.logIn).toHaveBeenCalledWith({ account: 'wang', password: 'pw', type: 0 });
    expect(localStorage.getItem(STORAGE.token)).toBe('tok');
    expect(useAppStore.getState().loggedIn).toBe(true);
  });

  it('applies the language the user saved (personal settings); none keeps the current one', async () => {
    api.findTreesForLogin.mockResolvedValue(menu);
    api.logIn.mockResolvedValue({ code: 1, data: { ...session, language: '' } });
    await signIn('wang', 'pw');
    expect(currentLang()).toBe('zh-CN');
    api.logIn.mockResolvedValue({ code: 1, data: { ...session, language: 'zh-TW', prefs: { theme: 'dark', mapLayer: '', pageSize: 50 } } });
    await signIn('wang', 'pw');
    expect(currentLang()).toBe('zh-TW');
    expect(useAppStore.getState().lang).toBe('zh-TW');
    expect(localStorage.getItem('lang')).toBe('zh-TW');
    expect(useAppStore.getState().session?.prefs?.pageSize).toBe(50);
    await applyLang('zh-CN', false);
    useAppStore.getState().setLang('zh-CN');
  });

  it('returns the server message for the login page error line when the code is 0 (no toast)', async () => {
    api.logIn.mockResolvedValue({ code: 0, message: '用户名或密码错误' });
    await expect(signIn('wang', 'bad')).resolves.toEqual({ ok: false, message: '用户名或密码错误' });
    expect(feedback.warn).not.toHaveBeenCalled();
    expect(api.findTreesForLogin).not.toHaveBeenCalled();
  });

  it.each([[null], [[]]])('refuses a user whose menu is %j with 当前用户未设置权限 and keeps no token', async (tree) => {
    api.logIn.mockResolvedValue({ code: 1, data: session });
    api.findTreesForLogin.mockResolvedValue(tree);
    await expect(signIn('wang', 'pw')).resolves.toEqual({ ok: false, message: NO_PERMISSION });
    expect(localStorage.getItem(STORAGE.token)).toBeNull();
    expect(feedback.warn).not.toHaveBeenCalled();
  });
});
