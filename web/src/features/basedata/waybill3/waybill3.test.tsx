import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import WaybillArchivePage from '.';

const api = vi.hoisted(() => ({ pageWaybills: vi.fn(), stateCounts: vi.fn(), formOptions: vi.fn() }));
vi.mock('../waybill/api', async (orig) => ({ ...(await orig<typeof import('../waybill/api')>()), ...api }));

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageWaybills.mockResolvedValue({
    list: [
      {
        id: 5, no: 'G0003YD202602280009', state: 'CLOSED', plate: '沪A·2', groupName: '上海车队', salesGroupName: '', depotName: '上海石化油库',
        destinations: [], plannedL: 8000, plannedLoadAt: 1772352000000, closedAt: 1772366400000, shippedV20: 7990, receivedV20: 7975,
        lossL: 15, lossRatePct: 0.188, allowedPct: 0.24, driverName: '张三',
      },
    ],
    total: 1, pageNum: 1, pageSize: 10,
  });
});

describe('waybill3 (archive)', { timeout: 180_000 }, () => {
  it('lists finished waybills with their loss figures, read only', async () => {
    renderPage(<WaybillArchivePage />, 'waybill3', ['export']);
    expect(await screen.findByText('G0003YD202602280009', {}, { timeout: 5000 })).toBeTruthy();
    expect(api.pageWaybills).toHaveBeenCalledWith('archive', expect.anything());
    expect(screen.getByText('已完结')).toBeTruthy();
    expect(screen.getByText('0.188')).toBeTruthy();
    expect(screen.getByText('7975')).toBeTruthy();
    expect(screen.getAllByText('损耗率(%)').length).toBeGreaterThan(0);
    expect(screen.queryByTestId('wb-add')).toBeNull();
  });
});
