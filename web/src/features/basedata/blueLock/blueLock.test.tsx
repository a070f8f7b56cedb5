import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import BlueLockPage, { toLockFilters } from '.';
import type { Lock } from './api';
import { toLockBody } from './LockForm';

const base = { model: 'TW-EL400', firmware: 'V2.3.1', groupId: 1, groupName: '华东分公司', remark: '', updatedAt: '2026-11-01 08:00:00', lastEventAt: '' };
const locks: Lock[] = [
  { ...base, id: 1, serial: 'TW4G-0001', kind: 2, state: 2, batteryPct: 87, online: true, lastEventAt: '2026-11-01 09:00:00', carId: 5, plate: '沪A·6N337', compartment: 2, device: 2 },
  { ...base, id: 2, serial: 'TWBLE-0002', kind: 1, state: 1, batteryPct: null, online: null, carId: null, plate: '', compartment: 0, device: 0 },
];

const api = vi.hoisted(() => ({ lockPage: vi.fn(), lockSave: vi.fn(), lockDelete: vi.fn(), lockBind: vi.fn(), lockUnbind: vi.fn() }));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([{ id: 1, parentId: null, name: '华东分公司', code: 'G1', children: [] }]) }));

const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.lockPage.mockResolvedValue({ list: locks, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Lock>);
});

describe('blueLock page', { timeout: 180_000 }, () => {
  it('turns the bound filter into a boolean and upper-cases the serial it saves', () => {
    expect(toLockFilters({ bound: 'no', kind: 2 })).toEqual({ bound: false, kind: 2 });
    expect(toLockFilters({ serial: 'x' })).toEqual({ serial: 'x' });
    expect(toLockBody({ serial: ' tw-1a ', kind: 1 }).serial).toBe('TW-1A');
  });

  it('lists the locks with their place, battery and online state ("—" when never reported), without buttons when not authorised', async () => {
    renderPage(<BlueLockPage />, 'blueLock', []);
    const bound = (await screen.findByText('TW4G-0001', {}, SLOW)).closest('tr')!;
    expect(within(bound).getByText('沪A·6N337 · 2 号仓 · 卸油阀')).toBeTruthy();
    expect(within(bound).getByText('87%')).toBeTruthy();
    expect(within(bound).getByText('在线')).toBeTruthy();
    const spare = screen.getByText('TWBLE-0002').closest('tr')!;
    expect(within(spare).getAllByText('—').length).toBeGreaterThanOrEqual(3);
    expect(within(spare).getByText('库存')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增蓝牙锁/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /解\s*绑/ })).toBeNull();
  });

  it('unbinds only with a reason, and does not offer to delete a bound lock', async () => {
    api.lockUnbind.mockResolvedValue(locks[1]);
    renderPage(<BlueLockPage />, 'blueLock', ['edit', 'bind', 'delete']);
    const row = (await screen.findByText('TW4G-0001', {}, SLOW)).closest('tr')!;
    expect((within(row).getByRole('button', { name: /删\s*除/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(row).getByRole('button', { name: /移\s*装/ })).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /解\s*绑/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(within(dialog).getByText('将从 沪A·6N337 · 2 号仓 · 卸油阀 解绑，锁回到库存')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入原因', {}, SLOW)).toBeTruthy();
    expect(api.lockUnbind).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('原因'), { target: { value: ' 返厂 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.lockUnbind).toHaveBeenCalledWith(1, '返厂'), SLOW);
  });

  it('refuses a serial of the wrong shape before asking the server', async () => {
    renderPage(<BlueLockPage />, 'blueLock', ['edit']);
    await screen.findByText('TW4G-0001', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /新增蓝牙锁/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.change(within(dialog).getByLabelText('锁编号'), { target: { value: 'ab_1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    // the hint below the field, and the same text again as its error
    await waitFor(() => expect(within(dialog).getAllByText('4–32 位字母、数字或“-”，保存为大写，全平台唯一').length).toBe(2), SLOW);
    expect(api.lockSave).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('锁编号'), { target: { value: 'tw-new-1' } });
    api.lockSave.mockResolvedValue(locks[1]);
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.lockSave).toHaveBeenCalledWith(expect.objectContaining({ serial: 'TW-NEW-1', kind: 2, state: 1 })), SLOW);
  });
});
