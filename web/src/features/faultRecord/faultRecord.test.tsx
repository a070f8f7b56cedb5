import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fault } from '../../api/faults';
import { nextStates, resolveText } from '../../api/faults';
import type { Page } from '../../api/types';
import { renderPage } from '../access/testing';
import { toFaultInput } from './FaultForm';
import FaultRecordPage, { toFaultFilters } from '.';

const base = {
  groupId: 1, groupName: '上海车队', device: '1 号仓液位探杆', faultType: 'probe', reportedBy: '司机 张三', technicianId: 0, technicianName: '',
  resolution: '', closedAt: '', visits: [], parts: [], sourceKind: '' as const, sourceId: 0, sourceAt: '', createdBy: 'admin', bySystem: false,
};
const faults: Fault[] = [
  { ...base, id: 1, carId: 5, plate: '沪A·6N337', symptom: '读数不变', reportedAt: '2026-11-25 08:00:00', state: 'open', resolveMinutes: 90 },
  { ...base, id: 2, carId: 6, plate: '苏E·71C26', symptom: '离线 6 小时', reportedAt: '2026-11-20 08:00:00', state: 'closed', resolveMinutes: 1500,
    resolution: '更换保险丝', sourceKind: 'offline', sourceId: 6, sourceAt: '2026-11-20 02:00:00', bySystem: true, reportedBy: '系统', createdBy: '' },
];

const api = vi.hoisted(() => ({ faultPage: vi.fn(), faultMeta: vi.fn(), faultTechnicians: vi.fn(), faultClose: vi.fn() }));
vi.mock('../../api/faults', async (orig) => ({ ...(await orig<typeof import('../../api/faults')>()), ...api }));
vi.mock('../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([]) }));
// the fault types are the code list's (D66): labels and options come from it, not from constants
const codeItem = (code: string, labelZh: string, enabled = true) => ({ id: 0, type: 'faultType', code, labelZh, labelTw: labelZh, labelEn: code, sort: 0, enabled, builtin: false, updatedAt: 0 });
const settings = vi.hoisted(() => ({ useCodeList: vi.fn() }));
vi.mock('../../api/settings', async (orig) => ({ ...(await orig<typeof import('../../api/settings')>()), ...settings }));

beforeEach(() => {
  api.faultPage.mockResolvedValue({ list: faults, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<Fault>);
  api.faultMeta.mockResolvedValue({ types: ['probe', 'terminal'], states: ['open', 'inProgress', 'waitingParts', 'closed'], transitions: { open: ['inProgress', 'waitingParts', 'closed'], inProgress: ['waitingParts', 'closed'], waitingParts: ['inProgress', 'closed'], closed: ['inProgress'] } });
  api.faultTechnicians.mockResolvedValue([]);
  settings.useCodeList.mockReturnValue({ data: [codeItem('probe', '液位探杆故障（列表）'), codeItem('terminal', '终端故障'), codeItem('pump', '卸油泵故障', false)], isLoading: false });
  api.faultClose.mockReset().mockResolvedValue(faults[0]);
});

describe('faultRecord page', { timeout: 180_000 }, () => {
  it('turns the period into startTime/endTime and the form into the request', () => {
    expect(toFaultFilters({ range: { start: '2026-11-01 00:00:00', end: '2026-11-02 23:59:59' }, state: 'open' })).toEqual({ state: 'open', startTime: '2026-11-01 00:00:00', endTime: '2026-11-02 23:59:59' });
    const body = toFaultInput(
      { carId: 0, faultType: 'probe', symptom: ' 读数不变 ', state: 'open', reportedAt: dayjs('2026-11-25 08:00:00'), parts: [{ name: ' 浮子 ', quantity: 2 }] },
      undefined,
      { carId: 5, plate: '沪A·6N337', kind: 'offline', sourceId: 5, sourceAt: '2026-11-25 02:00:00', faultType: 'terminal', symptom: '离线' },
    );
    expect(body).toMatchObject({ carId: 5, symptom: '读数不变', reportedAt: '2026-11-25 08:00:00', parts: [{ name: '浮子', quantity: 2 }], sourceKind: 'offline', sourceId: 5, sourceAt: '2026-11-25 02:00:00' });
  });

  it('offers only the allowed moves and writes times to resolve shortly', () => {
    expect(nextStates(undefined, 'closed')).toEqual(['closed']);
    const t = (k: string, o?: Record<string, unknown>) => `${k}:${JSON.stringify(o)}`;
    expect(resolveText(t, 1500)).toBe('faults.daysHours:{"d":1,"h":1}');
    expect(resolveText(t, 45)).toBe('faults.minutes:{"m":45}');
  });

  it('shows the states, the source and the time to resolve; a closed fault has no close action', async () => {
    renderPage(<FaultRecordPage />, 'faultRecord', []);
    const open = (await screen.findByText('沪A·6N337', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(open).getByText('待处理')).toBeTruthy();
    expect(within(open).getByText('已 1 小时 30 分')).toBeTruthy();
    expect(within(open).getByText('关闭')).toBeTruthy();
    expect(within(open).getByText('液位探杆故障（列表）')).toBeTruthy();
    expect(settings.useCodeList).toHaveBeenCalledWith('faultType');
    const closed = screen.getByText('苏E·71C26').closest('tr')!;
    expect(within(closed).getByText('已关闭')).toBeTruthy();
    expect(within(closed).getByText('由离线记录报修')).toBeTruthy();
    expect(within(closed).getByText('1 天 1 小时')).toBeTruthy();
    expect(within(closed).queryByText('关闭')).toBeNull();
    // raised by the system (D82): its reporter is marked; a person's is plain text
    expect(within(closed).getByTestId('by-system').textContent).toBe('系统');
    expect(within(open).queryByTestId('by-system')).toBeNull();
    expect(within(open).getByText('司机 张三')).toBeTruthy();
  });

  it('closes a fault through its dialog: the action is labelled 关闭故障, apart from the dialog\'s own close', async () => {
    renderPage(<FaultRecordPage />, 'faultRecord', []);
    const open = (await screen.findByText('沪A·6N337', {}, { timeout: 5000 })).closest('tr')!;
    fireEvent.click(within(open).getByRole('button', { name: '关闭' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 });
    expect(within(dialog).getByText('关闭故障：沪A·6N337')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: ' 更换探杆 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '关闭故障' }));
    await waitFor(() => expect(api.faultClose).toHaveBeenCalledWith(1, '更换探杆'), { timeout: 5000 });
  });
});
