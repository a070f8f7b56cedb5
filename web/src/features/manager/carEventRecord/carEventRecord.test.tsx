import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CarEvent, ValveChange } from '../../../api/carEvents';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page, pickVehicle, search, SLOW } from '../history/testing';
import CarEventRecordPage, { litres, trendHref } from '.';

const api = vi.hoisted(() => ({ carEventPage: vi.fn(), valveStatePage: vi.fn() }));
const hist = vi.hoisted(() => ({ searchCars: vi.fn() }));
const geo = vi.hoisted(() => ({ getAddress: vi.fn() }));
const groups = vi.hoisted(() => ({ groupTrees: vi.fn() }));
vi.mock('../../../api/carEvents', async (orig) => ({ ...(await orig<typeof import('../../../api/carEvents')>()), ...api }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...hist }));
vi.mock('../../../api/geocode', () => geo);
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), ...groups }));

const base = { carId: 5, plate: '沪A·6N337', groupName: '华东分公司', device: -1, deviceName: '', lng: 121.5, lat: 31.2, detail: '' };
const events: CarEvent[] = [
  { ...base, id: 2, compartment: 1, kind: 'theft', kindName: '疑似盗油', start: '2026-03-01 10:00:00', startMs: 1772330400000, end: '2026-03-01 10:12:00',
    stationId: 0, stationName: '', before: 9000, after: 8650.5, beforeV20: 8950, afterV20: 8602.3, change: -349.5, changeV20: -347.7, detail: '站外停车期间' },
  { ...base, id: 1, compartment: 2, kind: 'unload', kindName: '卸油', start: '2026-03-01 09:00:00', startMs: 1772326800000, end: '2026-03-01 09:20:00',
    stationId: 7, stationName: '浦东加油站', before: 9300, after: 0, beforeV20: 9250, afterV20: 0, change: -9300, changeV20: -9250 },
  { ...base, id: 3, compartment: 1, kind: 'valveOpen', kindName: '阀门打开', device: 2, deviceName: '卸油阀', start: '2026-03-01 10:01:00', startMs: 1772330460000, end: null,
    stationId: 0, stationName: '', before: 0, after: 0, beforeV20: 0, afterV20: 0, change: 0, changeV20: 0, detail: '卸油阀' },
];
const valves: ValveChange[] = [
  { carId: 5, plate: '沪A·6N337', groupName: '华东分公司', time: '2026-03-01 10:01:00', compartment: 1, deviceKind: 2, deviceName: '卸油阀',
    prevState: 5, state: 3, prevText: '关闭 · 上锁', stateText: '打开', lng: 121.5, lat: 31.2, stationId: 0, stationName: '' },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  hist.searchCars.mockResolvedValue(carPage);
  geo.getAddress.mockResolvedValue('上海市浦东新区附近');
  groups.groupTrees.mockResolvedValue([]);
  api.carEventPage.mockResolvedValue(page(events));
  api.valveStatePage.mockResolvedValue(page(valves));
});

describe('car event record page', { timeout: 60_000 }, () => {
  it('lists the events with kind, place, volumes and a trend link', async () => {
    renderPage(<CarEventRecordPage />, 'carEventRecord', []);
    await calledWith(api.carEventPage, { pageNum: 1, pageSize: 10 });
    const theft = (await screen.findByText('疑似盗油', {}, SLOW)).closest('tr')!;
    expect(within(theft).getByText('站外停车期间')).toBeTruthy();
    expect(within(theft).getByText('-349.5')).toBeTruthy();
    expect(within(theft).getByText('V20 -347.7')).toBeTruthy();
    expect(await within(theft).findByText('上海市浦东新区附近', {}, SLOW)).toBeTruthy();
    expect(within(theft).getByText('趋势').closest('a')!.getAttribute('href')).toBe('/manager/hydtrend?carId=5&at=1772330400000');
    const unload = screen.getByText('卸油').closest('tr')!;
    expect(within(unload).getByText('浦东加油站')).toBeTruthy();
    expect(within(unload).getByText('2 号仓')).toBeTruthy();
    const open = screen.getByText('阀门打开').closest('tr')!;
    expect(within(open).getByText('进行中')).toBeTruthy();
  });

  it('filters by vehicle and kind', async () => {
    renderPage(<CarEventRecordPage />, 'carEventRecord', []);
    await waitFor(() => expect(api.carEventPage).toHaveBeenCalled(), SLOW);
    await pickVehicle('沪A·6N337');
    fireEvent.mouseDown(screen.getAllByRole('combobox').find((c) => c.closest('.ant-form-item')?.textContent?.includes('事件类型'))!);
    fireEvent.click(await screen.findByTitle('疑似盗油', {}, SLOW));
    search();
    await calledWith(api.carEventPage, { carId: 5, kind: 'theft' });
  });

  it('shows every valve change on the second tab', async () => {
    renderPage(<CarEventRecordPage />, 'carEventRecord', []);
    fireEvent.click(await screen.findByRole('tab', { name: '阀门状态记录' }, SLOW));
    await calledWith(api.valveStatePage, { pageNum: 1 });
    const row = (await screen.findByTestId('valve-change', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('打开')).toBeTruthy();
    expect(within(row).getByText('卸油阀')).toBeTruthy();
  });

  it('formats litres and trend links', () => {
    expect(litres(12.34, true)).toBe('+12.3');
    expect(litres(-5)).toBe('-5.0');
    expect(trendHref({ carId: 9, startMs: 1 })).toBe('/manager/hydtrend?carId=9&at=1');
  });
});
