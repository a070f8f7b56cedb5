import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StatRow } from '../../../api/tripStats';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import { StatPage } from './StatPage';

const api = vi.hoisted(() => ({ statPage: vi.fn(), statTrips: vi.fn() }));
// jsdom has no canvas: the chart's option is tested in model.test.ts
vi.mock('./StatChart', () => ({ StatChart: () => <div data-testid="stat-chart" /> }));
vi.mock('../../../api/tripStats', async (orig) => ({ ...(await orig<typeof import('../../../api/tripStats')>()), ...api }));

const figures = { shippedVt: 0, shippedT: 0, km: 0, tonKm: 0, timedTrips: 0, abnormalOpenings: 0, avgOutToArrivalMin: -1 };
const car = (key: number, name: string, trips: number, v20: number, loss: number, over: number): StatRow => ({
  ...figures, key, name, groupName: '华东分公司', trips, shippedV20: v20, receivedV20: v20 - loss, lossL: loss,
  lossRatePct: Math.round((loss / v20) * 1e6) / 1e4, overAllowance: over,
});

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  const rows = [car(1, '沪A10001', 2, 18000, 60, 1), car(2, '沪A10002', 1, 5000, 5, 0)];
  api.statPage.mockResolvedValue({ list: rows, total: 2, pageNum: 1, pageSize: 10, sum: { ...car(0, '', 3, 23000, 65, 1), groupName: '' },
    top: rows, from: '2026-11-01', to: '2026-11-26',
    products: [{ id: 7, name: '92#汽油', groupName: '集团', trips: 2 }, { id: 8, name: '0#柴油', groupName: '集团', trips: 1 }] });
  api.statTrips.mockResolvedValue({ list: [], total: 1, pageNum: 1, pageSize: 20, sum: { ...car(0, '', 1, 8000, 40, 1) } });
});

describe('trip statistics page', { timeout: 150_000 }, () => {
  it('shows each car with its totals, and a number opens the trips behind it', async () => {
    renderPage(<StatPage kind="car" sales />, 'carStat2', ['export']);
    await waitFor(() => expect(api.statPage).toHaveBeenCalled(), SLOW);
    const [kind, q] = api.statPage.mock.calls[0];
    expect(kind).toBe('car');
    expect(q.sales).toBe(true);
    expect(q.start).toMatch(/^\d{4}-\d{2}-01 00:00:00$/); // this month, whole days
    const row = (await screen.findByText('沪A10001', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('18,000')).toBeTruthy();
    expect(within(row).getByText('0.3333 %')).toBeTruthy();
    const totals = screen.getByTestId('totals-row');
    expect(within(totals).getByText('23,000')).toBeTruthy();
    expect(screen.getByText('统计区间：2026-11-01 至 2026-11-26（按运单完结日，北京时间）')).toBeTruthy();
    // a row with no trip over the allowance has nothing to open there
    const quiet = screen.getByText('沪A10002').closest('tr')!;
    const cells = quiet.querySelectorAll('td');
    expect(cells[cells.length - 1].textContent).toBe('0');
    expect(cells[cells.length - 1].querySelector('a')).toBeNull();
    fireEvent.click(within(row).getByText('1', { selector: 'a' }));
    await waitFor(() => expect(api.statTrips).toHaveBeenCalled(), SLOW);
    expect(api.statTrips.mock.calls[0][0]).toMatchObject({ kind: 'car', sales: true, key: 1, only: 'over', pageNum: 1 });
    expect(await screen.findByTestId('drill-count', {}, SLOW)).toHaveProperty('textContent', '1');
    fireEvent.click(screen.getByTestId('total-trips'));
    await waitFor(() => expect(api.statTrips).toHaveBeenLastCalledWith(expect.objectContaining({ all: true, only: '' })), SLOW);
  });

  it('filters the figures to one product, and the trips behind a number to the same product', async () => {
    renderPage(<StatPage kind="car" sales={false} />, 'carStat', ['export']);
    await screen.findByText('沪A10001', {}, SLOW);
    const select = screen.getByTestId('product-filter');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByText('0#柴油 · 集团', {}, SLOW));
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.statPage).toHaveBeenLastCalledWith('car', expect.objectContaining({ productId: 8, sales: false })), SLOW);
    await waitFor(() => expect(screen.getByTestId('totals-row')).toBeTruthy(), SLOW);
    fireEvent.click(screen.getByTestId('total-trips'));
    await waitFor(() => expect(api.statTrips).toHaveBeenLastCalledWith(expect.objectContaining({ all: true, productId: 8 })), SLOW);
  });
});
