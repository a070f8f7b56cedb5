import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LockCommand, LockEvent } from '../../../api/lockEvents';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page } from '../history/testing';
import BlueLockRecordPage from '.';
import { compartmentsOf, isAlarming, placeOf, toTimeFilters } from './model';

const SLOW = { timeout: 20_000 };

const api = vi.hoisted(() => ({ lockEventPage: vi.fn(), lockCommandPage: vi.fn(), sendLockCommand: vi.fn() }));
const hist = vi.hoisted(() => ({ searchCars: vi.fn() }));
vi.mock('../../../api/lockEvents', async (orig) => ({ ...(await orig<typeof import('../../../api/lockEvents')>()), ...api }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...hist }));

const base: LockEvent = {
  id: 1, lockId: 4, serial: 'TWL00005-1', groupId: 3, groupName: '华东分公司', carId: 5, plate: '沪A·6N337', compartment: 1, device: 1, event: 1, method: 2,
  batteryPct: 87, time: '2026-03-01 10:00:00', lat: 31.2, lon: 121.4, stationId: 7, stationName: '上海石化油库', address: '', waybillId: 9, waybillNo: 'YD9',
  commandId: 0, recordedAt: '2026-03-01 10:00:00',
};
const away: LockEvent = { ...base, id: 2, lockId: 0, serial: 'X-99', event: 1, method: 3, batteryPct: -1, stationId: 0, stationName: '', address: '上海市嘉定区', waybillId: 0, waybillNo: '' };
const cmd: LockCommand = {
  id: 11, carId: 5, plate: '沪A·6N337', kind: 'unlock', params: 'compartments [1]', paramsText: '仓 1', userId: 1, userName: 'admin', status: 'ok', result: 0,
  reply: '成功', createdAt: '2026-03-01 10:00:00', doneAt: '2026-03-01 10:00:01', events: 1,
};

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  hist.searchCars.mockResolvedValue(carPage);
  api.lockEventPage.mockResolvedValue({ ...page([base, away]), counts: { opened: 2, closed: 0, tampered: 0, outside: 1, remote: 0 } });
  api.lockCommandPage.mockResolvedValue(page([cmd]));
});

describe('lock events model', () => {
  it('names the place by fence, address or coordinates', () => {
    const t = ((k: string) => k) as never;
    expect(placeOf(base, t)).toBe('上海石化油库');
    expect(placeOf(away, t)).toBe('上海市嘉定区');
    expect(placeOf({ ...away, address: '' }, t)).toBe('31.20000, 121.40000');
    expect(placeOf({ ...away, address: '', lat: 0, lon: 0 }, t)).toBe('lockEvents.noPlace');
    expect(isAlarming(base)).toBe(false);
    expect(isAlarming(away)).toBe(true);
    expect(isAlarming({ ...base, event: 3 })).toBe(true);
  });

  it('turns the form into filters', () => {
    expect(toTimeFilters({ range: { preset: 'today', start: '2026-03-01', end: '2026-03-02' }, plate: ' 沪A ', serial: '', event: 1 })).toEqual({
      startTime: '2026-03-01 00:00:00', endTime: '2026-03-02 23:59:59', plate: '沪A', event: 1,
    });
    expect(compartmentsOf({ all: true, compartments: [2] })).toEqual([]);
    expect(compartmentsOf({ all: false, compartments: [3, 1] })).toEqual([1, 3]);
  });
});

describe('blueLockRecord page', { timeout: 180_000 }, () => {
  it('lists events with their place, fence, waybill link and the totals', async () => {
    renderPage(<BlueLockRecordPage />, 'blueLockRecord', ['export']);
    await calledWith(api.lockEventPage, { pageNum: 1 });
    const inside = (await screen.findByText('上海石化油库', {}, SLOW)).closest('tr')!;
    expect(within(inside).getByText('围栏内')).toBeTruthy();
    expect(within(inside).getByText('手机蓝牙')).toBeTruthy();
    expect(within(inside).getByText('87%')).toBeTruthy();
    expect(within(inside).getByRole('link', { name: 'YD9' }).getAttribute('href')).toBe('/manager/oilTransportProcess?waybillId=9');
    const outside = screen.getByText('上海市嘉定区').closest('tr')!;
    expect(within(outside).getByText('围栏外')).toBeTruthy();
    expect(within(outside).getByText('未登记')).toBeTruthy();
    expect(screen.getByText('围栏外开锁 1')).toBeTruthy();
    expect(screen.getByText('开锁 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
  });

  it('shows commands with who asked and their state, and sends a remote unlock', async () => {
    api.sendLockCommand.mockResolvedValue(cmd);
    renderPage(<BlueLockRecordPage />, 'blueLockRecord', ['command']);
    fireEvent.click(await screen.findByRole('tab', { name: '远程开关锁' }, SLOW));
    const row = (await screen.findByText('仓 1', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('admin')).toBeTruthy();
    expect(within(row).getByText('终端已执行')).toBeTruthy();
    fireEvent.click(screen.getByTestId('lock-command'));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.mouseDown(dialog.querySelector('.ant-select-selector')!);
    fireEvent.click(await screen.findByTitle(/^沪A·6N337/, {}, SLOW));
    fireEvent.click(within(dialog).getByText('全部仓位'));
    fireEvent.click(await within(dialog).findByText('2', {}, SLOW));
    fireEvent.click(within(dialog).getByRole('button', { name: /下\s*发/ }));
    await waitFor(() => expect(api.sendLockCommand).toHaveBeenCalledWith({ carId: 5, action: 'unlock', compartments: [2] }), SLOW);
    await waitFor(() => expect(api.lockCommandPage.mock.calls.length).toBeGreaterThan(1), SLOW);
  });

  it('hides the command button without its permission and says when nothing happened', async () => {
    api.lockEventPage.mockResolvedValue({ ...page([]), counts: { opened: 0, closed: 0, tampered: 0, outside: 0, remote: 0 } });
    renderPage(<BlueLockRecordPage />, 'blueLockRecord', []);
    expect(await screen.findByText('所选时间内没有锁事件', {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: '远程开关锁' }));
    await screen.findByText('仓 1', {}, SLOW);
    expect(screen.queryByTestId('lock-command')).toBeNull();
  });
});
