import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../testing';
import CustomerCarPage from '.';
import type { CustomerCar } from './api';

const cars: CustomerCar[] = [
  { id: 5, customerId: 1, customerName: '华东石化销售有限公司', groupName: 'Top', plate: '沪D·K8801', carType: '油罐车', capacityL: 30000, compartments: 3, driverName: '钱师傅', driverPhone: '13800138001', remark: '', updatedAt: '2026-01-02 03:04:05' },
];

const api = vi.hoisted(() => ({ pageCustomerCars: vi.fn(), addCustomerCar: vi.fn(), updateCustomerCar: vi.fn(), deleteCustomerCar: vi.fn() }));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), ...api }));
vi.mock('../customer/api', () => ({ listCustomers: vi.fn().mockResolvedValue([{ id: 1, code: 'KH01', name: '华东石化销售有限公司', groupId: 1, stationIds: [], cars: 1 }]) }));

const SLOW = { timeout: 5000 };
const SAVE = /保\s*存/;

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageCustomerCars.mockResolvedValue({ list: cars, total: 1, pageNum: 1, pageSize: 10 } satisfies Page<CustomerCar>);
});

describe('customerCar page', { timeout: 180_000 }, () => {
  it('lists the customers’ cars', async () => {
    renderPage(<CustomerCarPage />, 'customerCar', []);
    expect(await screen.findByText('沪D·K8801', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('30,000')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增客户车辆/ })).toBeNull();
  });

  it('checks the plate and the driver phone, then adds a car of the only customer', async () => {
    api.addCustomerCar.mockResolvedValue(cars[0]);
    renderPage(<CustomerCarPage />, 'customerCar', ['add']);
    await screen.findByText('沪D·K8801', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /新增客户车辆/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    await waitFor(() => expect(within(dialog).getByText('华东石化销售有限公司（KH01）')).toBeTruthy(), SLOW);
    fireEvent.change(within(dialog).getByLabelText('车牌号'), { target: { value: 'ABC' } });
    fireEvent.change(within(dialog).getByLabelText('司机电话'), { target: { value: '123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('车牌号格式不正确（如 沪A·12345）', {}, SLOW)).toBeTruthy();
    expect(await within(dialog).findByText('请输入 11 位手机号', {}, SLOW)).toBeTruthy();
    expect(api.addCustomerCar).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('车牌号'), { target: { value: '沪d k8803' } });
    fireEvent.change(within(dialog).getByLabelText('司机电话'), { target: { value: '13800138003' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.addCustomerCar).toHaveBeenCalledTimes(1), SLOW);
    expect(api.addCustomerCar).toHaveBeenCalledWith(expect.objectContaining({ customerId: 1, plate: '沪D K8803', compartments: 1, driverPhone: '13800138003' }));
  });
});
