import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DiffRecord } from '../../../api/bizDiff';
import { renderPage } from '../../access/testing';
import { calledWith, carPage, page, search, SLOW } from '../history/testing';
import BizDiffRecordPage, { hasLoss, pct } from '.';

const api = vi.hoisted(() => ({ diffPage: vi.fn(), reviewDiff: vi.fn() }));
const hist = vi.hoisted(() => ({ searchCars: vi.fn() }));
const groups = vi.hoisted(() => ({ groupTrees: vi.fn() }));
vi.mock('../../../api/bizDiff', async (orig) => ({ ...(await orig<typeof import('../../../api/bizDiff')>()), ...api }));
vi.mock('../../../api/history', async (orig) => ({ ...(await orig<typeof import('../../../api/history')>()), ...hist }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), ...groups }));

const base = { carId: 5, plate: '沪A·6N337', groupName: '上海车队', waybillId: 9, waybillNo: 'G0001YD202603010001', reviewerName: '', reviewedAt: null, reviewReason: '' };
const diffs: DiffRecord[] = [
  { ...base, id: 1, waybillState: 'DIFF_FLAGGED', kind: 2, kindName: '途中异常开启', time: '2026-03-01 14:03:00', lossL: 0, lossRatePct: 0, allowedPct: 0,
    evidence: '{}', evidenceText: '2 号仓卸油阀 03-01 14:03 打开 120.75000,30.76000', status: 0, statusName: '待审核' },
  { ...base, id: 2, waybillState: 'DIFF_FLAGGED', kind: 1, kindName: '损耗超标', time: '2026-03-01 16:20:00', lossL: 300, lossRatePct: 1.25, allowedPct: 0.02,
    evidence: '{}', evidenceText: '发运 24000.0 L，实收 23700.0 L（车载液位前后差），重载 62.4 km', status: 0, statusName: '待审核' },
  { ...base, id: 3, waybillNo: 'G0001YD202602280007', waybillState: 'CLOSED', kind: 4, kindName: '未施封出库', time: '2026-02-28 08:00:00', lossL: 0, lossRatePct: 0,
    allowedPct: 0, evidence: '{}', evidenceText: '', status: 1, statusName: '已审核', reviewerName: 'dispatcher', reviewedAt: '2026-02-28 12:00:00', reviewReason: '油库补封' },
];

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  hist.searchCars.mockResolvedValue(carPage);
  groups.groupTrees.mockResolvedValue([]);
  api.diffPage.mockResolvedValue(page(diffs));
  api.reviewDiff.mockResolvedValue(null);
});

describe('business difference records page', { timeout: 60_000 }, () => {
  it('lists the differences with kind, loss figures, readable evidence and review state', async () => {
    renderPage(<BizDiffRecordPage />, 'bizDiffRecordVXE', ['review', 'export']);
    await calledWith(api.diffPage, { pageNum: 1, status: 0 });
    const opening = (await screen.findByText('2 号仓卸油阀 03-01 14:03 打开 120.75000,30.76000', {}, SLOW)).closest('tr')!;
    expect(within(opening).getByText('途中异常开启')).toBeTruthy();
    expect(within(opening).getAllByText('—').length).toBeGreaterThanOrEqual(3); // no loss figures for an opening
    const loss = screen.getByText('损耗超标').closest('tr')!;
    expect(within(loss).getByText('300.0')).toBeTruthy();
    expect(within(loss).getByText('1.25%')).toBeTruthy();
    expect(within(loss).getByText('0.02%')).toBeTruthy();
    const done = screen.getByText('未施封出库').closest('tr')!;
    expect(within(done).getByText('油库补封')).toBeTruthy();
    expect(within(done).queryByText('审核')).toBeNull();
    expect(within(done).getByText('已完结')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
  });

  it('reviews with a required reason and reloads', async () => {
    renderPage(<BizDiffRecordPage />, 'bizDiffRecordVXE', ['review']);
    const row = (await screen.findByText('损耗超标', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByText('审核'));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(within(dialog).getByText(/损耗 300.0 L/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /审核通过/ }));
    expect(await within(dialog).findByText('请填写审核意见', {}, SLOW)).toBeTruthy();
    expect(api.reviewDiff).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '  在计量误差内  ' } });
    const calls = api.diffPage.mock.calls.length;
    fireEvent.click(within(dialog).getByRole('button', { name: /审核通过/ }));
    await waitFor(() => expect(api.reviewDiff).toHaveBeenCalledWith(2, '在计量误差内'), SLOW);
    await waitFor(() => expect(api.diffPage.mock.calls.length).toBeGreaterThan(calls), SLOW);
  });

  it('hides review without its button permission and filters by kind', async () => {
    renderPage(<BizDiffRecordPage />, 'bizDiffRecordVXE', []);
    const row = (await screen.findByText('损耗超标', {}, SLOW)).closest('tr')!;
    expect(within(row).queryByText('审核')).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    fireEvent.mouseDown(screen.getAllByRole('combobox').find((c) => c.closest('.ant-form-item')?.textContent?.includes('差异类型'))!);
    fireEvent.click(await screen.findByTitle('铅封号不符', {}, SLOW));
    search();
    await calledWith(api.diffPage, { kind: 3 });
  });

  it('formats percentages and knows which kinds carry a loss', () => {
    expect(pct(0.01)).toBe('0.01%');
    expect(pct(1.234567)).toBe('1.2346%');
    expect(hasLoss({ kind: 1 })).toBe(true);
    expect(hasLoss({ kind: 2 })).toBe(false);
  });
});
