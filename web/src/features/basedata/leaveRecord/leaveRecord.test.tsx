import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CodeItem } from '../../../api/settings';
import type { Leave } from '../../../api/staff';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import LeaveRecordPage from '.';

const base = { employeeId: 7, employeeName: '陈志明', phone: '13910012345', groupName: '华东分公司', from: '2026-04-01', to: '2026-04-02', days: 2, reason: '',
  decidedBy: '', decidedAt: '', comment: '', current: false, createdAt: '2026-03-01 08:00:00' };
const leaves: Leave[] = [
  { ...base, id: 1, kind: 'study', state: 1 },
  { ...base, id: 2, kind: 'sick', state: 1, employeeName: '杨秀英' },
  { ...base, id: 3, kind: 'gone', state: 2, employeeName: '孙丽娜' },
];
const item = (code: string, labelZh: string, enabled = true): CodeItem =>
  ({ id: 0, type: 'leaveKind', code, labelZh, labelTw: labelZh, labelEn: code, sort: 0, enabled, builtin: false, updatedAt: 0 });

const api = vi.hoisted(() => ({ leavePage: vi.fn(), leaveSave: vi.fn(), leaveDelete: vi.fn(), employeePage: vi.fn() }));
vi.mock('../../../api/staff', async (orig) => ({ ...(await orig<typeof import('../../../api/staff')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([]) }));
const settings = vi.hoisted(() => ({ useCodeList: vi.fn() }));
vi.mock('../../../api/settings', async (orig) => ({ ...(await orig<typeof import('../../../api/settings')>()), ...settings }));

const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.leavePage.mockResolvedValue({ list: leaves, total: 3, pageNum: 1, pageSize: 10 } satisfies Page<Leave>);
  api.employeePage.mockResolvedValue({ list: [], total: 0, pageNum: 1, pageSize: 20 });
  api.leaveSave.mockResolvedValue(leaves[1]);
  settings.useCodeList.mockReturnValue({ data: [item('annual', '年假'), item('sick', '病假', false), item('marriage', '婚假', false), item('study', '学习假')], isLoading: false });
});

describe('leaveRecord page: kinds from the code list (D90)', { timeout: 180_000 }, () => {
  it('labels kinds from the list, the code itself when the list no longer has it, and filters by a code', async () => {
    renderPage(<LeaveRecordPage />, 'leaveRecord', []);
    const study = (await screen.findByText('陈志明', {}, SLOW)).closest('tr')!;
    expect(within(study).getByText('学习假')).toBeTruthy();
    expect(within(screen.getByText('杨秀英').closest('tr')!).getByText('病假')).toBeTruthy();
    expect(within(screen.getByText('孙丽娜').closest('tr')!).getByText('gone')).toBeTruthy();
    expect(settings.useCodeList).toHaveBeenCalledWith('leaveKind');
    fireEvent.mouseDown(within(screen.getByTestId('leave-kind-filter')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('学习假', { selector: '.ant-select-item-option-content' }, SLOW));
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(api.leavePage).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'study' })), SLOW);
  });

  it('offers the enabled kinds and the one a request holds, and saves the code', async () => {
    renderPage(<LeaveRecordPage />, 'leaveRecord', ['edit']);
    const sick = (await screen.findByText('杨秀英', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(sick).getByRole('button', { name: /编\s*辑/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.mouseDown(within(within(dialog).getByTestId('leave-kind')).getByRole('combobox'));
    const offered = await waitFor(() => {
      const o = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content')].map((e) => e.textContent);
      expect(o.length).toBeGreaterThan(0);
      return o;
    }, SLOW);
    expect(offered).toEqual(['年假', '病假', '学习假']); // not 婚假: disabled and not held
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存|确\s*定/ }));
    await waitFor(() => expect(api.leaveSave).toHaveBeenCalledWith(expect.objectContaining({ id: 2, kind: 'sick', from: '2026-04-01' })), SLOW);
  });
});
