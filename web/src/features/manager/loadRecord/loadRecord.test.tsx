import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoadOptions, LoadRecord } from '../../../api/waybillLoads';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page } from '../history/testing';
import LoadRecordPage from '.';
import { liveFigures } from './RecordForm';

/** The machine running the suite may be busy: wait longer than the shared 5 s. */
const SLOW = { timeout: 20_000 };

const api = vi.hoisted(() => ({
  loadPage: vi.fn(), loadOptions: vi.fn(), loadSave: vi.fn(), loadDetail: vi.fn(), loadReport: vi.fn(), sealCheck: vi.fn(), loadImportPreview: vi.fn(),
}));
const hist = vi.hoisted(() => ({ searchCars: vi.fn() }));
vi.mock('../../../api/waybillLoads', async (orig) => ({ ...(await orig<typeof import('../../../api/waybillLoads')>()), ...api }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...hist }));

const gasoline = { id: 1, groupId: 3, code: 'P95', name: '95#汽油', product: 2, family: 1, density20: 740, k0: null, k1: null };
const options: LoadOptions = {
  products: [gasoline],
  waybills: [{ id: 9, no: 'YD9', state: 'DISPATCHED', carId: 5, plate: '沪A·6N337', carCompartments: 3, depotName: '上海石化油库', recordId: 0,
    compartments: [{ no: 1, productId: 1, plannedL: 10000 }], seals: [] }],
  unsealing: [{ id: 8, no: 'YD8', state: 'ARRIVED', carId: 6, plate: '沪B·12345', carCompartments: 2, depotName: '上海石化油库', recordId: 3,
    compartments: [], seals: [{ compartment: 1 }] }],
};
const rec: LoadRecord = { id: 3, waybillId: 8, waybillNo: 'YD8', waybillState: 'ARRIVED', groupName: '华东分公司', carId: 6, plate: '沪B·12345', depotId: 2,
  depotName: '上海石化油库', ticketNo: 'T-1', loadedAt: 1772330400000, source: 1, remark: '', items: 1, vtL: 10000, v20L: 9877, massT: 7.298, seals: 'QF1', updatedAt: 1 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  hist.searchCars.mockResolvedValue(carPage);
  api.loadOptions.mockResolvedValue(options);
  api.loadPage.mockResolvedValue(page([rec]));
  api.loadReport.mockResolvedValue({ groupBy: 'car', lines: [{ key: 6, name: '沪B·12345', count: 1, vtL: 10000, v20L: 9877, massT: 7.298, records: [] }],
    total: { count: 1, vtL: 10000, v20L: 9877, massT: 7.298 } });
});

describe('load record page', { timeout: 180_000 }, () => {
  it('lists records with V20, seals and a state that locks them once sealed', async () => {
    renderPage(<LoadRecordPage />, 'loadRecord', ['edit', 'delete']);
    await calledWith(api.loadPage, { pageNum: 1 });
    const row = (await screen.findByText('YD8', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('9877.0')).toBeTruthy();
    expect(within(row).getByText('QF1')).toBeTruthy();
    expect(within(row).getByText('已施封，不可修改')).toBeTruthy();
  });

  it('shows V20 and mass live while the figures are typed, and saves the record', async () => {
    api.loadSave.mockResolvedValue({});
    renderPage(<LoadRecordPage />, 'loadRecord', ['edit']);
    fireEvent.click(await screen.findByRole('button', { name: /录入装油记录/ }, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    await waitFor(() => expect(api.loadOptions).toHaveBeenCalled(), SLOW);
    fireEvent.mouseDown(within(dialog).getByTestId('load-waybill').querySelector('.ant-select-selector') ?? within(dialog).getAllByRole('combobox')[0]);
    fireEvent.click(await screen.findByTitle(/^YD9/, {}, SLOW));
    const temp = (await within(dialog).findAllByTestId('load-temp', {}, SLOW))[0].querySelector('input') ?? within(dialog).getAllByTestId('load-temp')[0];
    fireEvent.change(temp, { target: { value: '30' } });
    await waitFor(() => expect(within(dialog).getByText('V20 9877.0 升 · 7.298 吨 · VCF20 0.98770')).toBeTruthy(), SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|保\s*存/ }));
    await waitFor(() => expect(api.loadSave).toHaveBeenCalled(), SLOW);
    expect(api.loadSave.mock.calls[0][0]).toMatchObject({ waybillId: 9, items: [{ compartment: 1, productId: 1, vtL: 10000, tempC: 30 }] });
  });

  it('checks seals found at unsealing', async () => {
    api.sealCheck.mockResolvedValue({ ok: false, state: 'ARRIVED', mismatches: [{ compartment: 1, expected: 'QF1', found: 'QF9' }] });
    renderPage(<LoadRecordPage />, 'loadRecord', ['sealCheck']);
    fireEvent.click(await screen.findByRole('button', { name: /铅封核对/ }, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    await waitFor(() => expect(api.loadOptions).toHaveBeenCalled(), SLOW);
    fireEvent.mouseDown(within(dialog).getAllByRole('combobox')[0]);
    fireEvent.click(await screen.findByTitle(/^YD8/, {}, SLOW));
    fireEvent.change(await within(dialog).findByLabelText('1号仓现场铅封号', {}, SLOW), { target: { value: 'QF9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(api.sealCheck).toHaveBeenCalledWith(8, [{ compartment: 1, foundNo: 'QF9' }]), SLOW);
    expect(await within(dialog).findByText('1号仓：装油时 QF1，现场 QF9', {}, SLOW)).toBeTruthy();
  });

  it('adds up the load report', async () => {
    renderPage(<LoadRecordPage />, 'loadRecord', []);
    fireEvent.click(await screen.findByRole('tab', { name: '装油报表' }, SLOW));
    await calledWith(api.loadReport, { groupBy: 'car' });
    const total = await screen.findByTestId('report-total', {}, SLOW);
    expect(within(total).getByText('9,877.0')).toBeTruthy();
  });

  it('computes the live figures like the server', () => {
    const f = liveFigures([{ productId: 1, vtL: 10000, tempC: 30 }, { productId: 1, vtL: 10000, tempC: 0 }, { productId: 1 }], [gasoline]);
    expect(f.rows[2]).toBeNull();
    expect(f.v20L).toBe(20120.4);
    expect(f.massT).toBe(14.867);
  });
});
