import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CarPassword, SetResult } from '../../../api/carPassword';
import { renderPage } from '../../access/testing';
import { calledWith, page, search, SLOW } from '../../manager/history/testing';
import CarPasswordPage from '.';

const api = vi.hoisted(() => ({ pageCarPasswords: vi.fn(), setCarPassword: vi.fn(), resendCarPassword: vi.fn(), viewCarPassword: vi.fn() }));
vi.mock('../../../api/carPassword', async (orig) => ({ ...(await orig<typeof import('../../../api/carPassword')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));

const none: CarPassword = {
  carId: 5, plate: '沪A·6N337', groupId: 3, groupName: '上海车队', terminalPhone: '013852600104', passwordSet: false, setBy: '', setAt: null,
  syncState: '', syncReason: '', syncText: '未设置', commandId: 0, syncedAt: null,
};
const pending: CarPassword = {
  ...none, carId: 6, plate: '沪B·12345', passwordSet: true, setBy: 'admin', setAt: '2026-03-01 10:00:00', syncState: 'pending',
  syncReason: 'offline', syncText: '待下发（终端离线）', commandId: 9,
};
const synced: CarPassword = { ...pending, carId: 7, plate: '冀A·3K281', syncState: 'ok', syncReason: '', syncText: '已同步', syncedAt: '2026-03-01 10:00:01' };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageCarPasswords.mockResolvedValue(page([none, pending, synced]));
  document.body.innerHTML = '';
});

const row = async (plate: string) => (await screen.findByText(plate, {}, SLOW)).closest('tr')!;
const button = (el: HTMLElement, name: RegExp) => within(el).queryByRole('button', { name });

describe('car password page', { timeout: 60_000 }, () => {
  it('lists cars with a masked password and the sync state, buttons by permission', async () => {
    renderPage(<CarPasswordPage />, 'carPassword', ['view', 'set', 'export']);
    await calledWith(api.pageCarPasswords, { pageNum: 1, pageSize: 10 });
    const n = await row('沪A·6N337');
    expect(within(n).getByText('未设置')).toBeTruthy();
    expect(button(n, /查看密码/)).toBeNull();
    expect(button(n, /设置密码/)).toBeTruthy();
    const p = await row('沪B·12345');
    expect(within(p).getByText('●●●●●●')).toBeTruthy();
    expect(within(p).getByText('待下发（终端离线）')).toBeTruthy();
    expect(button(p, /查看密码/)).toBeTruthy();
    expect(button(p, /重置密码/)).toBeTruthy();
    expect(button(p, /重新下发/)).toBeTruthy();
    const s = await row('冀A·3K281');
    expect(within(s).getByText('已同步')).toBeTruthy();
    expect(button(s, /重新下发/)).toBeNull();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
  });

  it('hides view, set and export without their codes', async () => {
    renderPage(<CarPasswordPage />, 'carPassword', []);
    const p = await row('沪B·12345');
    expect(button(p, /查看密码/)).toBeNull();
    expect(button(p, /重置密码/)).toBeNull();
    expect(button(p, /重新下发/)).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
  });

  it('filters by plate', async () => {
    renderPage(<CarPasswordPage />, 'carPassword', []);
    await row('沪A·6N337');
    fireEvent.change(document.querySelector('input#plate')!, { target: { value: '沪B' } });
    search();
    await calledWith(api.pageCarPasswords, { plate: '沪B' });
  });

  it('view: says it is recorded, then shows the password with a copy button', async () => {
    api.viewCarPassword.mockResolvedValue({ carId: 6, plate: '沪B·12345', password: '042917', syncState: 'pending', setAt: '2026-03-01 10:00:00', viewedAt: '2026-03-01 11:00:00' });
    renderPage(<CarPasswordPage />, 'carPassword', ['view']);
    fireEvent.click(button(await row('沪B·12345'), /查看密码/)!);
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(within(dialog).getByText(/将被记录/)).toBeTruthy();
    expect(api.viewCarPassword).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '司机无信号' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确定查看/ }));
    await waitFor(() => expect(api.viewCarPassword).toHaveBeenCalledWith(6, '司机无信号'), SLOW);
    const shown = await screen.findByTestId('revealed-password', {}, SLOW);
    expect(shown.textContent).toContain('042917');
    expect(screen.getByLabelText(/复制/)).toBeTruthy();
    expect(screen.getByText(/终端尚未确认此密码/)).toBeTruthy();
    expect(screen.getByText(/2026-03-01 11:00:00/)).toBeTruthy();
  });

  it('set: refuses a malformed password, sends six digits and shows the pending message', async () => {
    const result: SetResult = { ...pending, generated: false, message: '密码已保存，但车辆 沪A·6N337 的终端不在线；终端上线后将自动下发' };
    api.setCarPassword.mockResolvedValue(result);
    renderPage(<CarPasswordPage />, 'carPassword', ['set']);
    fireEvent.click(button(await row('沪A·6N337'), /设置密码/)!);
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    const input = within(dialog).getByPlaceholderText('000000');
    fireEvent.change(input, { target: { value: '12a45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保存并下发/ }));
    expect(await within(dialog).findByText('密码必须是 6 位数字', {}, SLOW)).toBeTruthy();
    expect(api.setCarPassword).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '135790' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保存并下发/ }));
    await waitFor(() => expect(api.setCarPassword).toHaveBeenCalledWith(5, '135790'), SLOW);
    const res = await screen.findByTestId('set-result', {}, SLOW);
    expect(within(res).getByText(/终端不在线/)).toBeTruthy();
  });

  it('set: the result has its own Close button, not the Save button that was loading (its spinner could stay)', async () => {
    let answer: (r: SetResult) => void = () => undefined;
    api.setCarPassword.mockReturnValue(new Promise<SetResult>((r) => (answer = r)));
    renderPage(<CarPasswordPage />, 'carPassword', ['set']);
    fireEvent.click(button(await row('沪A·6N337'), /设置密码/)!);
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.change(within(dialog).getByPlaceholderText('000000'), { target: { value: '135790' } });
    const save = within(dialog).getByRole('button', { name: /保存并下发/ });
    fireEvent.click(save);
    await waitFor(() => expect(save.classList.contains('ant-btn-loading')).toBe(true), SLOW);
    answer({ ...pending, carId: 5, generated: false, message: '密码已保存' });
    const res = await screen.findByTestId('set-result', {}, SLOW);
    const close = within(res.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /^关\s*闭$/ });
    expect(close).not.toBe(save);
    expect(close.querySelector('.ant-btn-loading-icon')).toBeNull();
  });

  it('set: generate sends no password', async () => {
    api.setCarPassword.mockResolvedValue({ ...synced, generated: true, message: '密码已保存并下发到车辆 沪A·6N337 的终端' });
    renderPage(<CarPasswordPage />, 'carPassword', ['set']);
    fireEvent.click(button(await row('沪A·6N337'), /设置密码/)!);
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByLabelText('随机生成'));
    fireEvent.click(within(dialog).getByRole('button', { name: /保存并下发/ }));
    await waitFor(() => expect(api.setCarPassword).toHaveBeenCalledWith(5, ''), SLOW);
    expect(await screen.findByText(/密码已随机生成/, {}, SLOW)).toBeTruthy();
  });

  it('resend sends the stored password at once', async () => {
    api.resendCarPassword.mockResolvedValue({ ...synced, carId: 6, generated: false, message: '密码已保存并下发到车辆 沪B·12345 的终端' });
    renderPage(<CarPasswordPage />, 'carPassword', ['set']);
    fireEvent.click(button(await row('沪B·12345'), /重新下发/)!);
    await waitFor(() => expect(api.resendCarPassword).toHaveBeenCalledWith(6), SLOW);
    expect(await screen.findByText(/已下发到车辆|密码已保存并下发/, {}, SLOW)).toBeTruthy();
    // Close was never a loading button (disabled while sending), so no spinner can linger on it
    const close = screen.getByRole('button', { name: /^关\s*闭$/ });
    expect(close.querySelector('.ant-btn-loading-icon')).toBeNull();
    expect((close as HTMLButtonElement).disabled).toBe(false);
  });
});
