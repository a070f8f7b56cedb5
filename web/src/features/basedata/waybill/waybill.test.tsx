import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import WaybillPage from '.';
import type { Waybill, WaybillDetail } from './api';
import { toFilters } from './WaybillList';
import { toInput } from './WaybillForm';
import dayjs from 'dayjs';

export const row = (over: Partial<Waybill>): Waybill => ({
  id: 1,
  no: 'G0003YD202603010001',
  state: 'PLANNED',
  stateAt: 0,
  flagged: false,
  carId: 5,
  plate: '沪A·6N337',
  groupId: 3,
  groupName: '上海车队',
  salesGroupId: 0,
  salesGroupName: '',
  customerId: 0,
  customerName: '',
  depotId: 7,
  depotName: '上海石化油库',
  destinations: [
    { seq: 1, stationId: 8, stationName: '徐汇加油站', state: 0, arriveAt: 0, receivedV20: 0 },
    { seq: 2, stationId: 9, stationName: '浦东加油站', state: 0, arriveAt: 0, receivedV20: 0 },
  ],
  plannedL: 13000,
  driverName: '张三',
  driverPhone: '13800000000',
  escortName: '李四',
  escortPhone: '',
  plannedLoadAt: 1772352000000,
  plannedArriveAt: 1772366400000,
  dispatchedAt: 0,
  departAt: 0,
  closedAt: 0,
  shippedV20: 0,
  receivedV20: 0,
  lossL: 0,
  lossRatePct: 0,
  allowedPct: 0,
  planId: 0,
  remark: '',
  createdAt: 0,
  ...over,
});
const detail: WaybillDetail = { ...row({}), compartments: [{ no: 1, productId: 4, productName: '0号柴油', plannedL: 8000, destSeq: 1 }], cancelReason: '' };

const api = vi.hoisted(() => ({
  pageWaybills: vi.fn(),
  stateCounts: vi.fn(),
  formOptions: vi.fn(),
  dispatchWaybill: vi.fn(),
  waybillDetail: vi.fn(),
  deleteWaybill: vi.fn(),
  cancelWaybill: vi.fn(),
}));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), ...api }));

const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.pageWaybills.mockResolvedValue({
    list: [row({}), row({ id: 2, no: 'G0003YD202603010002', state: 'IN_TRANSIT' }), row({ id: 3, no: 'G0003YD202603010003', state: 'DISPATCHED' })],
    total: 3,
    pageNum: 1,
    pageSize: 10,
  } satisfies Page<Waybill>);
  api.stateCounts.mockResolvedValue({ PLANNED: 1, IN_TRANSIT: 1, DISPATCHED: 1 });
  api.formOptions.mockResolvedValue({ cars: [], depots: [], stations: [], products: [], customers: [], sales: [] });
  api.waybillDetail.mockResolvedValue(detail);
  api.dispatchWaybill.mockResolvedValue({ ...detail, state: 'DISPATCHED' });
});

describe('waybill page (carrier)', { timeout: 180_000 }, () => {
  it('lists every state with chips and offers actions by state and permission', async () => {
    renderPage(<WaybillPage />, 'waybill', ['add', 'edit', 'delete', 'dispatch', 'cancel', 'print', 'export', 'import']);
    expect(await screen.findByText('G0003YD202603010001', {}, SLOW)).toBeTruthy();
    expect(api.pageWaybills).toHaveBeenCalledWith('carrier', expect.objectContaining({ pageNum: 1 }));
    expect(screen.getByTestId('wb-state-2').textContent).toBe('运输中');
    expect(await screen.findByTestId('wb-chip-IN_TRANSIT')).toBeTruthy();
    expect(screen.getAllByText('徐汇加油站、浦东加油站').length).toBe(3);
    // PLANNED: dispatch; IN_TRANSIT: neither dispatch nor cancel; DISPATCHED: cancel
    expect(screen.getByTestId('wb-dispatch-1')).toBeTruthy();
    expect(screen.queryByTestId('wb-dispatch-2')).toBeNull();
    const rows = screen.getAllByRole('row');
    const transit = rows.find((r) => within(r).queryByText('G0003YD202603010002'))!;
    expect(within(transit).queryByText('取 消')).toBeNull();
    const dispatched = rows.find((r) => within(r).queryByText('G0003YD202603010003'))!;
    expect(within(dispatched).getByText(/取\s*消/)).toBeTruthy();
    expect(screen.getByTestId('wb-add')).toBeTruthy();
  });

  it('dispatches after confirming', async () => {
    renderPage(<WaybillPage />, 'waybill', ['dispatch']);
    fireEvent.click(await screen.findByTestId('wb-dispatch-1', {}, SLOW));
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm-btns .ant-btn-primary')).toBeTruthy());
    fireEvent.click(document.querySelector('.ant-modal-confirm-btns .ant-btn-primary')!);
    await waitFor(() => expect(api.dispatchWaybill).toHaveBeenCalledWith(1));
  });

  it('hides the buttons without permission and opens the print view', async () => {
    renderPage(<WaybillPage />, 'waybill', ['print']);
    fireEvent.click(await screen.findByTestId('wb-print-1', {}, SLOW));
    const sheet = await screen.findByTestId('wb-print', {}, SLOW);
    expect(within(sheet).getByText('G0003YD202603010001')).toBeTruthy();
    expect(within(sheet).getByText('0号柴油')).toBeTruthy();
    expect(within(sheet).getByText('司机签字')).toBeTruthy();
    expect(screen.queryByTestId('wb-add')).toBeNull();
    expect(screen.queryByTestId('wb-dispatch-1')).toBeNull();
  });

  it('turns form values and filters into the API shapes', () => {
    const load = dayjs(1772352000000);
    expect(
      toInput({ carId: 5, depotId: 7, stationIds: [8], plannedLoadAt: load, plannedArriveAt: load.add(1, 'hour'), compartments: [{ no: 2, productId: 4, plannedL: 100, destSeq: 0 }] }),
    ).toMatchObject({ carId: 5, customerId: 0, salesGroupId: 0, plannedLoadAt: 1772352000000, plannedArriveAt: 1772355600000, compartments: [{ no: 2, destSeq: 1 }] });
    expect(toFilters({ no: 'YD', range: { preset: 'today', start: '2026-03-01 00:00:00', end: '2026-03-01 23:59:59' } })).toEqual({
      no: 'YD',
      startTime: '2026-03-01 00:00:00',
      endTime: '2026-03-01 23:59:59',
    });
  });
});
