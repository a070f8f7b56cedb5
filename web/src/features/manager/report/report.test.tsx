import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Named, Report, Tiles } from '../../../api/overview';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import ReportPage from '.';

const api = vi.hoisted(() => ({ operationsReport: vi.fn() }));
vi.mock('../../../api/overview', async (orig) => ({ ...(await orig<typeof import('../../../api/overview')>()), ...api }));
// the group tree is another part's: a plain picker of one company stands in for it
vi.mock('../../../components/GroupSelect', () => ({
  GroupSelect: ({ onChange }: { onChange?: (v: number) => void }) => (
    <button type="button" data-testid="pick-east" onClick={() => onChange?.(7)}>
      华东分公司
    </button>
  ),
}));

const total = (over: Partial<Tiles>): Tiles => ({
  key: 0, trips: 0, shippedVt: 0, shippedV20: 0, shippedT: 0, receivedV20: 0, lossL: 0, km: 0, tonKm: 0, timedTrips: 0,
  abnormalOpenings: 0, overAllowance: 0, lossRatePct: 0, avgOutToArrivalMin: -1, lockTampered: 0, sealIncidents: 0, ...over,
});
const car = (key: number, name: string, trips: number, v20: number, loss: number): Named =>
  ({ ...total({ key, trips, shippedV20: v20, receivedV20: v20 - loss, lossL: loss, lossRatePct: (loss / v20) * 100 }), name });

const report: Report = {
  groupId: 7, company: '华东分公司', kind: 'month', from: '2026-11-01', to: '2026-11-30', generatedAt: '2026-11-26 15:00:00',
  summary: total({ trips: 3, shippedV20: 90000, receivedV20: 89991, lossL: 9, lossRatePct: 0.01, overAllowance: 1, abnormalOpenings: 1, lockTampered: 2, sealIncidents: 1 }),
  cars: [car(1, '沪A·00001', 2, 60000, 3), car(2, '沪A·00002', 1, 30000, 6)],
  products: [car(3, '92#汽油', 3, 90000, 9)],
  stations: [{ stationId: 5, name: '一号站', unloadings: 3, cars: 2, receivedV20: 89991 }],
  differences: [
    { kind: 'over', waybillId: 1, waybillNo: 'YD1', plate: '沪A·00002', t: 1_793_500_000_000, lossL: 6, lossRatePct: 0.02, allowedPct: 0.01, compartment: 0, sealKind: 0, sealNo: '' },
    { kind: 'seal', waybillId: 2, waybillNo: 'YD2', plate: '沪A·00001', t: 1_793_600_000_000, lossL: 0, lossRatePct: 0, allowedPct: 0, compartment: 1, sealKind: 2, sealNo: 'QF9' },
  ],
  truncated: false,
};

beforeEach(() => {
  api.operationsReport.mockReset();
  api.operationsReport.mockResolvedValue(report);
});

describe('report page', { timeout: 150_000 }, () => {
  it('asks for a company, then lays out the report with totals that add up', async () => {
    renderPage(<ReportPage />, 'report', ['export']);
    expect(await screen.findByText('请选择单位、报表类型和日期后生成报表', {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByTestId('rp-generate'));
    expect(await screen.findByText('请选择单位', {}, SLOW)).toBeTruthy();
    expect(api.operationsReport).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('pick-east'));
    fireEvent.click(screen.getByTestId('rp-generate'));
    await waitFor(() => expect(api.operationsReport).toHaveBeenCalled(), SLOW);
    expect(api.operationsReport.mock.calls[0][0]).toMatchObject({ groupId: 7, kind: 'month' });
    const paper = await screen.findByTestId('report-paper', {}, SLOW);
    expect(within(paper).getByText('华东分公司 月运营报表 2026-11-01 ~ 2026-11-30')).toBeTruthy();
    // per car: the totals row adds the cars up (2 + 1 trips, 9 L of 90,000 L = 0.0100 %)
    const cars = within(paper).getByTestId('report-cars');
    const foot = cars.querySelector('tfoot tr') as HTMLElement;
    expect(within(foot).getByText('3')).toBeTruthy();
    expect(within(foot).getByText('90,000.0')).toBeTruthy();
    expect(within(foot).getByText('0.0100')).toBeTruthy();
    expect(within(within(paper).getByTestId('report-stations')).getAllByText('89,991.0').length).toBe(2);
    // differences, times in Asia/Shanghai
    const diffs = within(paper).getByTestId('report-diffs');
    expect(within(diffs).getByText('运损率 0.0200 %，允许 0.0100 %，运损 6.0 L')).toBeTruthy();
    expect(within(diffs).getByText('非目的地破封 QF9')).toBeTruthy();
    expect(within(diffs).getByText('2026-11-01 10:26:40')).toBeTruthy();
    expect(within(paper).getByText(/制表人/)).toBeTruthy();
  });
});
