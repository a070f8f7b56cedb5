import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OfflinePeriod } from '../../../api/history';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page, pickVehicle, search, SLOW } from '../history/testing';
import OfflineRecordPage from '.';

const api = vi.hoisted(() => ({ offlineRecordPage: vi.fn(), searchCars: vi.fn() }));
const geo = vi.hoisted(() => ({ getAddress: vi.fn() }));
const groups = vi.hoisted(() => ({ groupTrees: vi.fn() }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...api }));
vi.mock('../../../api/geocode', () => geo);
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), ...groups }));

const periods: OfflinePeriod[] = [
  { carId: 6, plate: '沪B·12345', groupName: '上海车队', start: '2026-03-01 15:20:01', end: null, minutes: 40, lastLng: 121.5, lastLat: 31.2, offlineMinutes: 20 },
  { carId: 5, plate: '沪A·6N337', groupName: '华东分公司', start: '2026-03-01 13:50:01', end: '2026-03-01 15:55:01', minutes: 125, lastLng: '', lastLat: '', offlineMinutes: 10 },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  geo.getAddress.mockReset();
  groups.groupTrees.mockReset();
  api.searchCars.mockResolvedValue(carPage);
  api.offlineRecordPage.mockResolvedValue(page(periods));
  geo.getAddress.mockResolvedValue('上海市浦东新区附近');
  groups.groupTrees.mockResolvedValue([]);
});

describe('offline record page', { timeout: 60_000 }, () => {
  it('lists the offline periods of the caller\'s group for the default range at once', async () => {
    renderPage(<OfflineRecordPage />, 'offlineRecord', []);
    await calledWith(api.offlineRecordPage, { pageNum: 1, pageSize: 10 });
    const q = api.offlineRecordPage.mock.calls[0][0] as Record<string, unknown>;
    expect(q.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(q.groupId).toBeUndefined();
    const open = (await screen.findByText('沪B·12345', {}, SLOW)).closest('tr')!;
    expect(within(open).getByText('仍离线')).toBeTruthy();
    expect(within(open).getByText('40 分钟')).toBeTruthy();
    expect(within(open).getByText('20 分钟')).toBeTruthy();
    expect(await within(open).findByText('上海市浦东新区附近', {}, SLOW)).toBeTruthy();
    const closed = screen.getByText('沪A·6N337').closest('tr')!;
    expect(within(closed).getByText('2026-03-01 15:55:01')).toBeTruthy();
    expect(within(closed).getByText('2 小时 5 分钟')).toBeTruthy();
    expect(within(closed).getAllByText('未定位').length).toBe(2);
  });

  it('narrows to one vehicle', async () => {
    renderPage(<OfflineRecordPage />, 'offlineRecord', []);
    await waitFor(() => expect(api.offlineRecordPage).toHaveBeenCalled(), SLOW);
    await pickVehicle('沪A·6N337');
    search();
    await calledWith(api.offlineRecordPage, { carId: 5 });
  });
});
