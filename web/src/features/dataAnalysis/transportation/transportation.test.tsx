import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { SLOW } from '../../manager/history/testing';
import TransportationPage from '.';
import type { Figures } from '../shared/api';

const api = vi.hoisted(() => ({ breakdown: vi.fn(), top5: vi.fn(), trips: vi.fn() }));
vi.mock('../shared/api', async (orig) => ({ ...(await orig<typeof import('../shared/api')>()), ...api }));
// the canvas chart is not what this test looks at
vi.mock('../shared/Chart', () => ({ Chart: () => <div data-testid="breakdown-chart" /> }));

const figs = (o: Partial<Figures>): Figures => ({
  key: 0, trips: 0, shippedVt: 0, shippedV20: 0, shippedT: 0, receivedV20: 0, lossL: 0, km: 0, tonKm: 0, timedTrips: 0,
  abnormalOpenings: 0, overAllowance: 0, lossRatePct: 0, avgOutToArrivalMin: -1, tampering: null, sealIncidents: null, ...o,
});

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.breakdown.mockImplementation(async (q: { dim: string }) => ({
    period: { from: 20261101, to: 20261130 },
    totals: figs({ trips: 3, shippedV20: 23000, lossL: 80, lossRatePct: 0.3478, overAllowance: 1, avgOutToArrivalMin: 120, tampering: 3, sealIncidents: 1 }),
    rows:
      q.dim === 'route'
        ? [{ ...figs({ trips: 2, shippedV20: 18000 }), name: '油库 → 一站', depotId: 5, stationId: 6, spread: { avgMin: 120, minMin: 90, maxMin: 150, stdMin: 30 } }]
        : [{ ...figs({ key: 2, trips: 2, shippedV20: 15000, tampering: 2, sealIncidents: 0 }), name: '华东' }, { ...figs({ key: 3, trips: 1, shippedV20: 8000, tampering: 1, sealIncidents: 1 }), name: '华北' }],
  }));
  api.top5.mockResolvedValue([]);
  api.trips.mockResolvedValue({ list: [], total: 1, pageNum: 1, pageSize: 10 });
});

describe('transportation analysis page', { timeout: 60_000 }, () => {
  it('shows the totals, breaks down by company and route, and opens the trips behind a number', async () => {
    renderPage(<TransportationPage />, 'transportation', ['export']);
    const trips = await screen.findByTestId('tile-trips', {}, SLOW);
    await within(trips).findByText('3', {}, SLOW);
    expect(within(screen.getByTestId('tile-shippedV20')).getByText('23,000.0')).toBeTruthy();
    expect(within(screen.getByTestId('tile-tampering')).getByText('3')).toBeTruthy();
    expect(api.breakdown.mock.calls[0][0]).toMatchObject({ dim: 'company' });
    expect(api.breakdown.mock.calls[0][0].start).toMatch(/^\d{4}-\d{2}-01$/); // this month by default
    const totals = screen.getByTestId('breakdown-totals');
    expect(within(totals).getByText('0.3478')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();

    // the over-allowance tile opens the over trips of the whole set
    fireEvent.click(screen.getByTestId('tile-overAllowance'));
    await waitFor(() => expect(api.trips).toHaveBeenCalled(), SLOW);
    expect(api.trips.mock.calls[0][0]).toMatchObject({ only: 'over', pageNum: 1 });
    expect(await screen.findByText('共 1 趟已完结运单', {}, SLOW)).toBeTruthy();

    // a company row's number opens that company's trips
    fireEvent.click(within(screen.getByText('华北').closest('tr')!).getByTestId('cell-trips'));
    await waitFor(() => expect(api.trips.mock.calls.some((c) => c[0].companyId === 3 && c[0].only === '')).toBe(true), SLOW);

    // routes: the out-to-arrival spread, and a route row opens its depot and station
    fireEvent.click(within(screen.getByTestId('dim-switch')).getByText('线路'));
    const row = (await screen.findByText('油库 → 一站', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('150.0')).toBeTruthy();
    expect(within(row).getByText('30.0')).toBeTruthy();
    fireEvent.click(within(row).getByTestId('cell-trips'));
    await waitFor(() => expect(api.trips.mock.calls.some((c) => c[0].depotId === 5 && c[0].stationId === 6)).toBe(true), SLOW);
  });

  it('hides the export without its button code', async () => {
    renderPage(<TransportationPage />, 'transportation', []);
    await screen.findByTestId('tile-trips', {}, SLOW);
    expect(screen.queryByTestId('analysis-export')).toBeNull();
  });
});
