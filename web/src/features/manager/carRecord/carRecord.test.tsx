import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PositionRow } from '../../../api/history';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page, pickVehicle, search, SLOW } from '../history/testing';
import CarRecordPage from '.';

const api = vi.hoisted(() => ({ hbaseTable: vi.fn(), searchCars: vi.fn() }));
const geo = vi.hoisted(() => ({ getAddress: vi.fn() }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...api }));
vi.mock('../../../api/geocode', () => geo);

const pos = (p: Partial<PositionRow>): PositionRow => ({
  time: '2026-03-01 16:00:00', receivedAt: '2026-03-01 16:00:02', carId: 5, plate: '沪A·6N337', terminalId: 5, lat: 31.230416, lng: 121.473701,
  altitude: 4, speed: 65.5, direction: 45, alarm: 0, status: 3 | (3 << 8), alarms: [], states: [], mileage: 100.5, fuel: null, signal: 25,
  satellites: 11, blind: false, ...p,
});
const rows = [
  pos({}),
  pos({ time: '2026-03-01 15:59:50', direction: 100, status: 1 << 8, mileage: null, blind: true, alarms: ['超速报警'], lat: 0, lng: 0 }),
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  geo.getAddress.mockReset();
  api.searchCars.mockResolvedValue(carPage);
  api.hbaseTable.mockResolvedValue(page(rows));
  geo.getAddress.mockResolvedValue('上海市黄浦区附近');
});

describe('vehicle record page', { timeout: 60_000 }, () => {
  it('lists positions with heading, load, mileage, blind-area flag and the address of located rows', async () => {
    renderPage(<CarRecordPage />, 'carRecord', []);
    await pickVehicle('沪A·6N337');
    search();
    await calledWith(api.hbaseTable, { table: 'positions', carId: 5 });
    const first = (await screen.findByText('2026-03-01 16:00:00', {}, SLOW)).closest('tr')!;
    expect(within(first).getByText('东北 (45°)')).toBeTruthy();
    expect(within(first).getByText('满载')).toBeTruthy();
    expect(within(first).getByText('100.5')).toBeTruthy();
    expect(await within(first).findByText('上海市黄浦区附近', {}, SLOW)).toBeTruthy();
    const second = screen.getByText('2026-03-01 15:59:50').closest('tr')!;
    expect(within(second).getByText('东偏南 (100°)')).toBeTruthy();
    expect(within(second).getByText('半载')).toBeTruthy();
    expect(within(second).getByText('补传')).toBeTruthy();
    expect(within(second).getByText('超速报警')).toBeTruthy();
    expect(within(second).getAllByText('未定位').length).toBe(2);
    // no lookup for a row without a position
    expect(geo.getAddress).toHaveBeenCalledTimes(1);
  });
});
