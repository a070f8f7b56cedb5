import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Sim } from '../../../api/fleet';
import type { Group, Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import SimInfoPage from '.';

const base = { groupId: 2, groupName: 'East', status: 1, remark: '', createdAt: '2026-01-02 03:04:05' };
const sims: Sim[] = [
  { ...base, id: 3, iccid: '8986001234567890123', msisdn: '14400001111', operator: 'cmcc', expireAt: '2027-01-01 00:00:00', terminalId: 9, terminalPhone: '013800001111' },
  { ...base, id: 4, iccid: '8986001234567890999', msisdn: '14400002222', operator: 'ctcc', expireAt: null, terminalId: null, terminalPhone: '' },
];

const api = vi.hoisted(() => ({ pageSims: vi.fn(), insertSim: vi.fn(), updateSim: vi.fn(), deleteSims: vi.fn() }));
vi.mock('../../../api/fleet', async (orig) => ({ ...(await orig<typeof import('../../../api/fleet')>()), ...api }));
vi.mock('../../../api/group', () => ({
  groupTrees: vi.fn(async (): Promise<Group[]> => [
    { id: 1, parentId: null, name: 'Top', code: 'G1', contact: '', phone: '', address: '', remark: '', title: '', logo: '', theme: '', children: [] },
  ]),
}));

const ALL = ['add', 'edit', 'delete', 'export'];
const SAVE = /保\s*存/;

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageSims.mockResolvedValue({ list: sims, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Sim>);
});

describe('simInfoVXE page', { timeout: 60_000 }, () => {
  it('lists SIM cards with translated operators and the bound terminal', async () => {
    renderPage(<SimInfoPage />, 'simInfoVXE', []);
    expect(await screen.findByText('8986001234567890123')).toBeTruthy();
    expect(screen.getByText('移动')).toBeTruthy();
    expect(screen.getByText('电信')).toBeTruthy();
    expect(screen.getByText('013800001111')).toBeTruthy();
    expect(screen.getByText('2027-01-01')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增SIM卡/ })).toBeNull();
  });

  it('validates and inserts a SIM card', async () => {
    api.insertSim.mockResolvedValue(sims[1]);
    renderPage(<SimInfoPage />, 'simInfoVXE', ALL);
    await screen.findByText('8986001234567890123');
    fireEvent.click(screen.getByRole('button', { name: /新增SIM卡/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('ICCID不能为空')).toBeTruthy();
    expect(within(dialog).getByText('SIM卡号不能为空')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('ICCID'), { target: { value: '123' } });
    fireEvent.change(within(dialog).getByLabelText('SIM卡号'), { target: { value: '1440' } });
    expect(await within(dialog).findByText('ICCID应为19到20位数字')).toBeTruthy();
    expect(await within(dialog).findByText('SIM卡号应为11到13位数字')).toBeTruthy();
    expect(api.insertSim).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('ICCID'), { target: { value: '89860012345678901234' } });
    fireEvent.change(within(dialog).getByLabelText('SIM卡号'), { target: { value: '14400003333' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.insertSim).toHaveBeenCalledTimes(1));
    expect(api.insertSim).toHaveBeenCalledWith({ groupId: 1, iccid: '89860012345678901234', msisdn: '14400003333', operator: '', status: 1, expireAt: null, remark: '' });
  });

  it('deletes a row only after confirmation, with its id', async () => {
    api.deleteSims.mockResolvedValue(1);
    renderPage(<SimInfoPage />, 'simInfoVXE', ALL);
    const row = (await screen.findByText('14400002222')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定要删除该数据吗？')).toBeTruthy();
    expect(api.deleteSims).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.deleteSims).toHaveBeenCalledWith([4]));
  });
});
