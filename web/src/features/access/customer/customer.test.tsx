import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../testing';
import CustomerPage from '.';
import type { Customer, StationOption } from './api';

const customers: Customer[] = [
  { id: 1, code: 'KH01', name: '华东石化销售有限公司', groupId: 1, groupName: 'Top', stationIds: [11, 12, 13], stationNames: ['漕溪北路加油站', '世纪大道加油站', '松江加油站'], cars: 2, contact: '王经理', phone: '13900000002', updatedAt: '2026-01-02 03:04:05' },
  { id: 2, code: 'KH02', name: '空客户', groupId: 1, groupName: 'Top', stationIds: [], stationNames: [], cars: 0 },
];
const stations: StationOption[] = [
  { id: 11, name: '漕溪北路加油站', groupName: 'Top', customerId: 1, customerName: '华东石化销售有限公司' },
  { id: 14, name: '安亭加油站', groupName: 'Top', customerId: null, customerName: '' },
];

const api = vi.hoisted(() => ({ pageCustomers: vi.fn(), addCustomer: vi.fn(), updateCustomer: vi.fn(), deleteCustomer: vi.fn(), customerStations: vi.fn() }));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([{ id: 1, parentId: null, name: 'Top', code: 'G0001', children: [] }]) }));

const SLOW = { timeout: 5000 };
const SAVE = /保\s*存/;

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageCustomers.mockResolvedValue({ list: customers, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Customer>);
  api.customerStations.mockResolvedValue(stations);
});

describe('customer page', { timeout: 180_000 }, () => {
  it('lists customers with their stations (first two and a count) and an empty state', async () => {
    renderPage(<CustomerPage />, 'customer', []);
    expect(await screen.findByText('华东石化销售有限公司', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('漕溪北路加油站')).toBeTruthy();
    expect(screen.getByText('3 座')).toBeTruthy();
    expect(screen.getByText('无加油站')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增客户/ })).toBeNull();
  });

  it('searches by name or code', async () => {
    renderPage(<CustomerPage />, 'customer', []);
    await screen.findByText('华东石化销售有限公司', {}, SLOW);
    const filters = document.querySelector<HTMLElement>('form.tw-filter-form')!;
    fireEvent.change(within(filters).getByLabelText('名称/编码'), { target: { value: 'KH' } });
    fireEvent.click(within(filters).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.pageCustomers).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'KH', pageNum: 1 })));
  });

  it('adds a customer owning a free station; a station of another customer is disabled', async () => {
    api.addCustomer.mockResolvedValue(customers[1]);
    renderPage(<CustomerPage />, 'customer', ['add']);
    await screen.findByText('华东石化销售有限公司', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /新增客户/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.change(within(dialog).getByLabelText('客户名称'), { target: { value: '浦东石油' } });
    await waitFor(() => expect(api.customerStations).toHaveBeenCalled());
    fireEvent.mouseDown(within(dialog).getByLabelText('所属加油站'));
    const owned = await screen.findByText('漕溪北路加油站（已属于 华东石化销售有限公司）', {}, SLOW);
    expect(owned.closest('.ant-select-item')!.className).toContain('disabled');
    fireEvent.click(await screen.findByText('安亭加油站', { selector: '.ant-select-item-option-content' }, SLOW));
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.addCustomer).toHaveBeenCalledTimes(1), SLOW);
    expect(api.addCustomer).toHaveBeenCalledWith(expect.objectContaining({ name: '浦东石油', code: '', stationIds: [14] }));
  });
});
