import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, filterForm, page, search } from '../history/testing';
import TransportPlanCarItemPage from '.';

/** The machine running the suite may be busy: wait longer than the shared 5 s. */
const SLOW = { timeout: 20_000 };

const api = vi.hoisted(() => ({ itemPage: vi.fn(), planOptions: vi.fn() }));
const hist = vi.hoisted(() => ({ searchCars: vi.fn() }));
vi.mock('../../../api/waybillLoads', async (orig) => ({ ...(await orig<typeof import('../../../api/waybillLoads')>()), ...api }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...hist }));

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  hist.searchCars.mockResolvedValue(carPage);
  api.planOptions.mockResolvedValue({ depots: [], stations: [], customers: [{ id: 4, name: '浦东石油' }], products: [] });
  api.itemPage.mockResolvedValue(
    page([
      { id: 11, planId: 1, planNo: 'JH1', planDate: '2026-03-02', customerName: '浦东石油', depotName: '上海石化油库', carId: 5, plate: '沪A·6N337', stationId: 7,
        stationName: '浦东加油站', productId: 1, productName: '95#汽油', plannedL: 16000, remark: '', waybillId: 9, waybillNo: 'YD9', waybillState: 'IN_TRANSIT', delivered: false },
    ]),
  );
});

describe('plan car items page', { timeout: 180_000 }, () => {
  it('lists items with their waybill and filters by state', async () => {
    renderPage(<TransportPlanCarItemPage />, 'transportPlanCarItem', ['export']);
    const row = (await screen.findByText('YD9', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('运输中')).toBeTruthy();
    expect(within(row).getByText('16,000')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
    fireEvent.mouseDown(within(filterForm()).getAllByRole('combobox').find((c) => c.closest('.ant-form-item')?.textContent?.includes('运单状态'))!);
    fireEvent.click(await screen.findByTitle('未生成运单', {}, SLOW));
    search();
    await calledWith(api.itemPage, { state: 'NONE' });
  });
});
