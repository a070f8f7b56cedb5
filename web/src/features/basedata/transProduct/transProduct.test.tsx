import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import TransProductPage from '.';
import type { Product } from './api';

const products: Product[] = [
  { id: 1, code: 'CY0', name: '0# 柴油', grade: '国VI', product: 0, family: 2, density20: 840, k0: null, k1: null, groupId: 1, groupName: 'Top', updatedAt: '2026-01-02 03:04:05' },
  { id: 2, code: 'QY95', name: '95# 汽油', grade: '国VIB', product: 2, family: 1, density20: 740, k0: 346.4228, k1: 0.4388, groupId: 1, groupName: 'Top', updatedAt: '2026-01-02 03:04:05' },
];

const api = vi.hoisted(() => ({ pageProducts: vi.fn(), addProduct: vi.fn(), updateProduct: vi.fn(), deleteProduct: vi.fn() }));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([{ id: 1, parentId: null, name: 'Top', code: 'G0001', children: [] }]) }));

const SLOW = { timeout: 5000 };
const SAVE = /保\s*存/;

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageProducts.mockResolvedValue({ list: products, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Product>);
});

describe('transProduct page', { timeout: 180_000 }, () => {
  it('lists products with fuel type, family and K override, without buttons when not authorised', async () => {
    renderPage(<TransProductPage />, 'transProduct', []);
    expect(await screen.findByText('CY0', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('QY95')).toBeTruthy();
    expect(screen.getByText('346.4228 / 0.4388')).toBeTruthy();
    expect(screen.getByText('按类别')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增油品/ })).toBeNull();
  });

  it('adds a product: the fuel type fills family and density; K0 without K1 is refused', async () => {
    api.addProduct.mockResolvedValue(products[0]);
    renderPage(<TransProductPage />, 'transProduct', ['add', 'edit', 'delete']);
    await screen.findByText('CY0', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /新增油品/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect(await within(dialog).findByText('请输入油品名称', {}, SLOW)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('油品名称'), { target: { value: ' 0# 柴油 ' } });
    fireEvent.change(within(dialog).getByLabelText('油品编码'), { target: { value: 'CY0' } });
    fireEvent.change(within(dialog).getByLabelText('K0 系数'), { target: { value: '186.9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    expect((await within(dialog).findAllByText('K0 与 K1 须同时填写或同时留空', {}, SLOW)).length).toBeGreaterThan(0);
    expect(api.addProduct).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('K0 系数'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: SAVE }));
    await waitFor(() => expect(api.addProduct).toHaveBeenCalledTimes(1), SLOW);
    expect(api.addProduct).toHaveBeenCalledWith(expect.objectContaining({ name: '0# 柴油', code: 'CY0', product: 0, family: 2, density20: 840, k0: null, k1: null }));
  });

  it('asks before deleting and shows the server refusal', async () => {
    api.deleteProduct.mockRejectedValue(new Error('油品“0# 柴油”已被 1 条运单、计划或装油记录使用，不能删除'));
    renderPage(<TransProductPage />, 'transProduct', ['delete']);
    const row = (await screen.findByText('CY0', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }, SLOW));
    await waitFor(() => expect(api.deleteProduct).toHaveBeenCalledWith(1));
    expect(await screen.findByText(/不能删除/, {}, SLOW)).toBeTruthy();
  });
});
