import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { SLOW } from '../../manager/history/testing';
import TrendPage from '.';
import type { Figures, Series } from '../shared/api';

const api = vi.hoisted(() => ({ compare: vi.fn(), options: vi.fn(), trips: vi.fn() }));
vi.mock('../shared/api', async (orig) => ({ ...(await orig<typeof import('../shared/api')>()), ...api }));
vi.mock('../shared/Chart', () => ({ Chart: () => <div data-testid="trend-chart" /> }));

const figs = (o: Partial<Figures>): Figures => ({
  key: 0, trips: 0, shippedVt: 0, shippedV20: 0, shippedT: 0, receivedV20: 0, lossL: 0, km: 0, tonKm: 0, timedTrips: 0,
  abnormalOpenings: 0, overAllowance: 0, lossRatePct: 0, avgOutToArrivalMin: -1, tampering: 0, sealIncidents: 0, ...o,
});
const series = (from: number, to: number, trips: number): Series => ({
  period: { from, to }, totals: figs({ trips, shippedV20: trips * 1000 }), points: [{ ...figs({ trips, shippedV20: trips * 1000 }), from, to }],
});

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.compare.mockResolvedValue({
    current: series(20261101, 20261130, 3), lastMonth: series(20261001, 20261031, 1), lastYear: series(20251101, 20251130, 0),
    mom: { trips: 200, shippedV20: 200, tampering: null }, yoy: { trips: null, shippedV20: null },
  });
  api.options.mockResolvedValue({ products: [{ productId: 7, name: '92#汽油', trips: 2 }], routes: [{ depotId: 5, stationId: 6, name: '油库 → 一站', trips: 2 }] });
  api.trips.mockResolvedValue({ list: [], total: 1, pageNum: 1, pageSize: 10 });
});

describe('trend analysis page', { timeout: 60_000 }, () => {
  it('compares with last month and last year, "—" where there is nothing to compare with, and drills to a period\'s trips', async () => {
    renderPage(<TrendPage />, 'trend', ['export']);
    const table = await screen.findByTestId('compare-table', {}, SLOW);
    const row = (await within(table).findByText('趟数', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('+200.0 %')).toBeTruthy();
    expect(within(row).getAllByText('—').length).toBe(1); // year on year: no trips a year before
    expect(within(screen.getByTestId('tile-trips')).getByText(/环比 \+200\.0 % · 同比 —/)).toBeTruthy();
    expect(api.compare.mock.calls[0][0]).toMatchObject({ grain: 'day' });
    // last month's number opens last month's trips
    fireEvent.click(within(row).getByText('1'));
    await waitFor(() => expect(api.trips).toHaveBeenCalled(), SLOW);
    expect(api.trips.mock.calls[0][0]).toMatchObject({ start: '2026-10-01 00:00:00', end: '2026-10-31 23:59:59', only: '' });
    // by week
    fireEvent.click(screen.getByText('按周'));
    await waitFor(() => expect(api.compare.mock.calls.some((c) => c[0].grain === 'week')).toBe(true), SLOW);
  });
});
