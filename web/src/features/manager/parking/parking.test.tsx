import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParkingPeriod } from '../../../api/alarm';
import { renderPage } from '../../access/testing';
import { calledWith, page, SLOW } from '../history/testing';
import ParkingPage from '.';

const api = vi.hoisted(() => ({ parkingPage: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));
vi.mock('../../../api/geocode', () => ({ getAddress: vi.fn().mockResolvedValue('') }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));

const periods: ParkingPeriod[] = [
  { id: 2, carId: 5, carNumber: '沪A·6N337', startTime: '2026-03-01 10:00:00', endTime: null, minutes: 150, lng: 121.5, lat: 31.2, thresholdMinutes: 120 },
];

beforeEach(() => {
  api.parkingPage.mockReset();
  api.parkingPage.mockResolvedValue(page(periods));
});

describe('overtime parking page', { timeout: 60_000 }, () => {
  it('lists the periods of the default range, an open one as still standing', async () => {
    renderPage(<ParkingPage />, 'parking', []);
    await calledWith(api.parkingPage, { pageNum: 1 });
    const row = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('仍在停车')).toBeTruthy();
    expect(within(row).getByText('2 小时 30 分钟')).toBeTruthy();
    expect(within(row).getByText('120 分钟')).toBeTruthy();
  });
});
