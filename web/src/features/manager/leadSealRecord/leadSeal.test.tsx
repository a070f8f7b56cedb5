import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { IncidentRow, SealRow } from '../../../api/leadSeal';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import { detail, trip } from '../oilTransportProcess/fixtures';
import LeadSealRecordPage from '.';
import { placeOf, toSealFilters } from './filters';

const api = vi.hoisted(() => ({ sealPage: vi.fn(), incidentPage: vi.fn() }));
const process = vi.hoisted(() => ({ processDetail: vi.fn() }));
vi.mock('../../../api/leadSeal', async (orig) => ({ ...(await orig<typeof import('../../../api/leadSeal')>()), ...api }));
vi.mock('../../../api/transportProcess', async (orig) => ({ ...(await orig<typeof import('../../../api/transportProcess')>()), ...process }));

const seal = (over: Partial<SealRow>): SealRow => ({
  id: 1, sealNo: 'QF10000001', carId: 3, plate: '沪A·12345', groupName: '上海车队', compartment: 1, waybillId: 9, waybillNo: 'G0001YD202611250009',
  depotId: 5, depotName: '浦东油库', appliedAt: '2026-11-25 08:00:00', appliedBy: '', state: 1, brokenAt: null, brokenStationId: 0,
  brokenStationName: '', brokenLat: 0, brokenLon: 0, incidents: 0, ...over,
});
const incident: IncidentRow = {
  id: 4, kind: 2, t: '2026-11-25 09:10:00', carId: 3, plate: '沪A·12345', groupName: '上海车队', waybillId: 9, waybillNo: 'G0001YD202611250009',
  sealId: 2, compartment: 2, sealNo: 'QF10000002', stationId: 0, stationName: '', lat: 31_150_000, lon: 121_150_000, detail: '',
  detailText: '在目的站围栏外破封',
};

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.sealPage.mockResolvedValue({
    list: [seal({}), seal({ id: 2, sealNo: 'QF10000002', compartment: 2, state: 3, brokenAt: '2026-11-25 09:10:00', brokenLat: 31_150_000, brokenLon: 121_150_000, incidents: 1 }),
      seal({ id: 3, sealNo: 'QF10000003', state: 2, appliedBy: '油库员', brokenAt: '2026-11-25 10:00:00', brokenStationId: 7, brokenStationName: '一号加油站' })],
    total: 3, pageNum: 1, pageSize: 10, totals: { total: 3, applied: 1, brokenAtDest: 1, brokenAway: 1 },
  });
  api.incidentPage.mockResolvedValue({ list: [incident], total: 1, pageNum: 1, pageSize: 10, totals: { total: 1, reused: 0, brokenAway: 1, noSeals: 0, mismatch: 0 } });
  process.processDetail.mockResolvedValue(detail({ waybill: trip({ id: 9, no: 'G0001YD202611250009' }) }));
});

describe('toSealFilters', () => {
  it('turns the range into start and end and trims the texts', () => {
    expect(toSealFilters({ range: { preset: 'today', start: '2026-11-01', end: '2026-11-02' }, sealNo: ' qf1 ', waybillNo: '  ', state: 2 })).toEqual({
      startTime: '2026-11-01 00:00:00', endTime: '2026-11-02 23:59:59', sealNo: 'qf1', state: 2,
    });
    expect(placeOf('', 31_150_000, 121_150_000)).toBe('31.150000, 121.150000');
    expect(placeOf('一号站', 1, 1)).toBe('一号站');
    expect(placeOf('', 0, 0)).toBe('');
  });
});

describe('lead seal page', { timeout: 150_000 }, () => {
  it('lists the seals with how each ended, the totals of the set, and opens the trip', async () => {
    renderPage(<LeadSealRecordPage />, 'leadSealRecord', ['export']);
    await waitFor(() => expect(api.sealPage).toHaveBeenCalled(), SLOW);
    expect(api.sealPage.mock.calls[0][0].startTime).toMatch(/^\d{4}-\d{2}-01 00:00:00$/); // this month by default
    const away = (await screen.findByText('QF10000002', {}, SLOW)).closest('tr')!;
    expect(within(away).getByText('途中破封')).toBeTruthy();
    expect(within(away).getByText('31.150000, 121.150000')).toBeTruthy();
    expect(within(away).getByText('1 条异常')).toBeTruthy();
    const atDest = screen.getByText('QF10000003').closest('tr')!;
    expect(within(atDest).getByText('一号加油站')).toBeTruthy();
    expect(within(atDest).getByText('油库员')).toBeTruthy();
    expect(within(screen.getByText('QF10000001').closest('tr')!).getByText('油库系统')).toBeTruthy();
    const totals = screen.getByTestId('seal-totals');
    expect(within(totals).getByText('合计 3 个铅封')).toBeTruthy();
    expect(within(totals).getByText('到站解封 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
    fireEvent.click(screen.getAllByTestId('waybill-link')[0]);
    await waitFor(() => expect(process.processDetail).toHaveBeenCalledWith(9), SLOW);
    expect(await screen.findByTestId('trip-view', {}, SLOW)).toBeTruthy();
  });

  it('lists the incidents with their detail; no export without the button', async () => {
    renderPage(<LeadSealRecordPage />, 'leadSealRecord', []);
    await screen.findByText('QF10000001', {}, SLOW);
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: '铅封异常' }));
    const row = (await screen.findByText('在目的站围栏外破封', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('QF10000002 · 2 号仓')).toBeTruthy();
    expect(within(screen.getByTestId('incident-totals')).getByText('合计 1 条异常')).toBeTruthy();
  });

  it('says so when a period has no seals', async () => {
    api.sealPage.mockResolvedValue({ list: [], total: 0, pageNum: 1, pageSize: 10, totals: { total: 0, applied: 0, brokenAtDest: 0, brokenAway: 0 } });
    renderPage(<LeadSealRecordPage />, 'leadSealRecord', []);
    expect(await screen.findByText('所选时间内没有施封的铅封：铅封号来自装油记录', {}, SLOW)).toBeTruthy();
  });
});
