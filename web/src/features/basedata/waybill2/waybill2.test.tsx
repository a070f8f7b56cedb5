import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import WaybillSalesPage from '.';

const api = vi.hoisted(() => ({ pageWaybills: vi.fn(), stateCounts: vi.fn(), formOptions: vi.fn() }));
vi.mock('../waybill/api', async (orig) => ({ ...(await orig<typeof import('../waybill/api')>()), ...api }));

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageWaybills.mockResolvedValue({
    list: [
      {
        id: 4, no: 'G0003YD202603010004', state: 'IN_TRANSIT', plate: '沪A·1', groupName: '上海车队', salesGroupName: '华东销售', depotName: '上海石化油库',
        destinations: [{ seq: 1, stationId: 8, stationName: '徐汇加油站' }], plannedL: 8000, plannedLoadAt: 1772352000000, driverName: '张三',
      },
    ],
    total: 1, pageNum: 1, pageSize: 10,
  });
});

describe('waybill2 (sales company view)', { timeout: 180_000 }, () => {
  it('reads the sales view with the carrier, without carrier actions or chips', async () => {
    renderPage(<WaybillSalesPage />, 'waybill2', ['export']);
    expect(await screen.findByText('G0003YD202603010004', {}, { timeout: 5000 })).toBeTruthy();
    expect(api.pageWaybills).toHaveBeenCalledWith('sales', expect.anything());
    expect(screen.getByText('上海车队')).toBeTruthy();
    expect(screen.getByText('销售公司运单')).toBeTruthy();
    expect(screen.queryByTestId('wb-add')).toBeNull();
    expect(screen.queryByTestId('wb-chips')).toBeNull();
    expect(screen.getByTestId('wb-print-4')).toBeTruthy();
    expect(api.stateCounts).not.toHaveBeenCalled();
    expect(api.formOptions).not.toHaveBeenCalled();
  });
});
