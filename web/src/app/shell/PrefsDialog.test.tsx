import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ editUserSetting: vi.fn() }));
vi.mock('../../api/auth', () => api);

import { testSession } from '../../features/access/testing';
import { applyLang, currentLang } from '../../i18n';
import { useAppStore } from '../store';
import { PrefsDialog, prefsBody, prefsFormValues } from './PrefsDialog';

const SAVE = /保\s*存/;

function renderDialog(onClose = vi.fn()) {
  render(
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <PrefsDialog open onClose={onClose} />
      </AntApp>
    </ConfigProvider>,
  );
  return { dialog: screen.getByRole('dialog'), onClose };
}

beforeEach(() => {
  api.editUserSetting.mockReset();
  useAppStore.setState({ session: { ...testSession, language: '', timezone: '', prefs: { theme: '', mapLayer: '', pageSize: 0 } } });
});
afterEach(async () => {
  await act(() => applyLang('zh-CN', false));
  useAppStore.setState({ lang: 'zh-CN' });
});

describe('个人设置 (issue 18)', { timeout: 60_000 }, () => {
  it('shows the defaults as what they mean and the body says every field', () => {
    const v = prefsFormValues({ language: '', timezone: '', prefs: undefined });
    expect(v).toEqual({ language: '', timezone: '', theme: 'light', mapLayer: 'normal', pageSize: 10 });
    expect(prefsBody({ ...v, theme: 'dark', pageSize: 50, timezone: 'Asia/Tokyo' })).toEqual({
      language: '',
      timezone: 'Asia/Tokyo',
      prefs: { theme: 'dark', mapLayer: 'normal', pageSize: 50 },
    });
  });

  it('renders the fields in Chinese, saves the chosen values and puts them in force at once', async () => {
    api.editUserSetting.mockImplementation(async (body) => ({ language: body.language, timezone: body.timezone, prefs: body.prefs }));
    const { dialog, onClose } = renderDialog();
    for (const label of ['语言', '时区', '主题', '地图图层', '每页条数']) expect(within(dialog).getByText(label)).toBeTruthy();
    expect(within(dialog).getByText('个人设置')).toBeTruthy();
    fireEvent.click(within(dialog).getByText('深色'));
    fireEvent.click(within(dialog).getByText('卫星'));
    fireEvent.click(within(dialog).getByText('20'));
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.editUserSetting).toHaveBeenCalledTimes(1));
    expect(api.editUserSetting).toHaveBeenCalledWith({ language: '', timezone: '', prefs: { theme: 'dark', mapLayer: 'satellite', pageSize: 20 } });
    expect(await screen.findByText('修改成功')).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(useAppStore.getState().session?.prefs).toEqual({ theme: 'dark', mapLayer: 'satellite', pageSize: 20 });
    expect(JSON.parse(localStorage.getItem('currentUserInfo')!).prefs.pageSize).toBe(20);
  });

  it('a saved language is switched to at once', async () => {
    api.editUserSetting.mockResolvedValue({ language: 'en-US', timezone: '', prefs: { theme: '', mapLayer: '', pageSize: 0 } });
    const { dialog } = renderDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(currentLang()).toBe('en-US'));
    expect(useAppStore.getState().lang).toBe('en-US');
  });

  it('a refused save (shown by the client) keeps the dialog open and the session unchanged', async () => {
    api.editUserSetting.mockRejectedValue(new Error('参数错误'));
    const { dialog, onClose } = renderDialog();
    fireEvent.click(within(dialog).getByText('深色'));
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.editUserSetting).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(onClose).not.toHaveBeenCalled();
    expect(useAppStore.getState().session?.prefs?.theme).toBe('');
  });
});
