import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '../../../api/waybillLoads';
import { BusinessError } from '../../../api/client';
import { renderPage } from '../../access/testing';
import { calledWith, page } from '../history/testing';
import TransportPlanPage from '.';
import { progressPct } from './progress';

/** The machine running the suite may be busy: wait longer than the shared 5 s. */
const SLOW = { timeout: 20_000 };

const api = vi.hoisted(() => ({ planPage: vi.fn(), planOptions: vi.fn(), makeWaybills: vi.fn(), planDelete: vi.fn(), planAdd: vi.fn() }));
vi.mock('../../../api/waybillLoads', async (orig) => ({ ...(await orig<typeof import('../../../api/waybillLoads')>()), ...api }));

const item = { planId: 1, planNo: 'G0001JH202603010001', planDate: '2026-03-02', customerName: '', depotName: '上海石化油库', carId: 5, plate: '沪A·6N337',
  stationId: 7, stationName: '浦东加油站', productId: 1, productName: '95#汽油', remark: '' };
const plan: Plan = {
  id: 1, groupId: 3, groupName: '华东分公司', no: 'G0001JH202603010001', planDate: '2026-03-02', depotId: 2, depotName: '上海石化油库', customerId: 0,
  customerName: '', title: '早班', remark: '', createdAt: 1, updatedAt: 1, total: 2, withWaybill: 1, delivered: 1, plannedL: 24000,
  items: [
    { ...item, id: 11, plannedL: 16000, waybillId: 9, waybillNo: 'G0001YD202603010001', waybillState: 'CLOSED', delivered: true },
    { ...item, id: 12, plannedL: 8000, waybillId: 0, waybillNo: '', waybillState: '', delivered: false },
  ],
};

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.planPage.mockResolvedValue(page([plan]));
  api.planOptions.mockResolvedValue({ depots: [{ id: 2, name: '上海石化油库' }], stations: [{ id: 7, name: '浦东加油站' }], customers: [], products: [{ id: 1, name: '95#汽油' }] });
});

describe('transport plan page', { timeout: 180_000 }, () => {
  it('lists plans with their progress and items with the waybill state', async () => {
    renderPage(<TransportPlanPage />, 'transportPlan', ['add', 'edit', 'delete', 'makeWaybills']);
    await calledWith(api.planPage, { pageNum: 1 });
    const row = (await screen.findByText('G0001JH202603010001', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('1/2')).toBeTruthy();
    expect(within(row).getByText('2 车 · 24,000 升 · 已生成运单 1')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /展开行|Expand row/ }));
    const items = await screen.findByTestId('plan-items', {}, SLOW);
    expect(within(items).getByText('已完结')).toBeTruthy();
    expect(within(items).getByText('G0001YD202603010001')).toBeTruthy();
    expect(within(items).getByText('未生成运单')).toBeTruthy();
  });

  it('makes waybills through fromPlan and leaves the refusal to the server message', async () => {
    api.makeWaybills.mockRejectedValueOnce(new BusinessError('接口不存在', { code: 0, message: '接口不存在', success: 0, data: null }));
    renderPage(<TransportPlanPage />, 'transportPlan', ['makeWaybills']);
    const row = (await screen.findByText('G0001JH202603010001', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '生成运单' }));
    await waitFor(() => expect(api.makeWaybills).toHaveBeenCalledWith(1), SLOW);
    expect(within(row).queryByRole('button', { name: '编 辑' })).toBeNull();
  });

  it('hides the buttons a user lacks', async () => {
    renderPage(<TransportPlanPage />, 'transportPlan', []);
    const row = (await screen.findByText('G0001JH202603010001', {}, SLOW)).closest('tr')!;
    expect(within(row).queryByRole('button', { name: '生成运单' })).toBeNull();
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
  });

  it('computes the progress', () => {
    expect(progressPct(1, 3)).toBe(33);
    expect(progressPct(0, 0)).toBe(0);
  });
});
