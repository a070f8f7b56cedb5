import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import TransportRecordPage from '.';
import { detail, trip } from '../oilTransportProcess/fixtures';

const api = vi.hoisted(() => ({ recordPage: vi.fn(), processDetail: vi.fn() }));
const stations = vi.hoisted(() => ({ viewStations: vi.fn() }));
vi.mock('../../../api/transportProcess', async (orig) => ({ ...(await orig<typeof import('../../../api/transportProcess')>()), ...api }));
vi.mock('../../../api/station', async (orig) => ({ ...(await orig<typeof import('../../../api/station')>()), ...stations }));

const closed = trip({ id: 9, no: 'G0001YD202611250009', state: 'CLOSED', late: false, flagged: false, closedAt: 1_780_007_200_000,
  shippedV20: 20000, receivedV20: 19995, receivedSource: 1, lossL: 5, lossRatePct: 0.025, allowedPct: 0.03, loadedKm: 120, tonKm: 1776, outToArrivalMin: 95 });
const over = trip({ id: 10, no: 'G0001YD202611250010', state: 'DIFF_FLAGGED', late: false, flagged: false, closedAt: 1_780_007_300_000,
  shippedV20: 10000, receivedV20: 9900, receivedSource: 3, lossL: 100, lossRatePct: 1, allowedPct: 0.01, over: true, loadedKm: 40, tonKm: 336, outToArrivalMin: -1 });

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  stations.viewStations.mockResolvedValue([]);
  api.recordPage.mockResolvedValue({ list: [closed, over], total: 2, pageNum: 1, pageSize: 10,
    totals: { trips: 2, shippedV20: 30000, receivedV20: 29895, lossL: 105, lossRatePct: 0.35, overCount: 1, loadedKm: 160, tonKm: 2112, avgOutToArrivalMin: 95, timedTrips: 1 } });
  api.processDetail.mockResolvedValue(detail({ waybill: closed }));
});

describe('transport record page', { timeout: 150_000 }, () => {
  it('lists finished trips with their figures and the totals of the set, and opens a trip', async () => {
    renderPage(<TransportRecordPage />, 'transportRecord', ['export']);
    await waitFor(() => expect(api.recordPage).toHaveBeenCalled(), SLOW);
    expect(api.recordPage.mock.calls[0][0].start).toMatch(/^\d{4}-\d{2}-\d{2} /); // last month by default
    const row = (await screen.findByText('G0001YD202611250009', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('20,000.0')).toBeTruthy();
    expect(within(row).getByText('液位仪交油记录')).toBeTruthy();
    expect(within(row).getByText('0.0250 %')).toBeTruthy();
    expect(within(row).getByText('1776.0')).toBeTruthy();
    expect(within(row).getByText('1 小时 35 分')).toBeTruthy();
    const overRow = screen.getByText('G0001YD202611250010').closest('tr')!;
    expect(within(overRow).getByText('超标')).toBeTruthy();
    expect(within(overRow).getByText('人工录入')).toBeTruthy();
    const totals = screen.getByTestId('totals-row');
    expect(within(totals).getByText('合计 2 趟')).toBeTruthy();
    expect(within(totals).getByText('30,000.0')).toBeTruthy();
    expect(within(totals).getByText('超标 1 趟')).toBeTruthy();
    expect(within(totals).getByText('2112.0')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
    fireEvent.click(screen.getByText('G0001YD202611250009'));
    await waitFor(() => expect(api.processDetail).toHaveBeenCalledWith(9), SLOW);
    expect(await screen.findByTestId('trip-view', {}, SLOW)).toBeTruthy();
  });
});
