import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationLogEntry } from '../../../api/types';
import { renderPage } from '../testing';
import OperationLogPage, { toLogFilters } from '.';

const rows: OperationLogEntry[] = [
  { id: 1, userId: 1, userName: 'admin', groupId: 1, module: 'user', action: 'delete', target: 'zhang', targetId: 7, detail: '', ip: '127.0.0.1', createdAt: '2026-03-18 15:30:00' },
  {
    id: 2,
    userId: 1,
    userName: 'admin',
    groupId: 1,
    module: 'alarm',
    action: 'deal',
    target: '{"k":"oplog.alarmCount","a":[2]}',
    targetId: null,
    detail: 'state 1: ok',
    ip: '127.0.0.1',
    createdAt: '2026-03-18 15:31:00',
    moduleName: '报警管理',
    actionName: '报警处理',
    targetText: '2 条报警',
    detailText: '处理状态：已处理；备注：ok',
  },
];
const api = vi.hoisted(() => ({ pageOperationLog: vi.fn(), exportFile: vi.fn() }));
vi.mock('../../../api/log', () => ({ pageOperationLog: api.pageOperationLog }));
vi.mock('../../../api/export', () => ({ exportFile: api.exportFile }));

beforeEach(() => {
  api.pageOperationLog.mockReset().mockResolvedValue({ list: rows, total: 1, pageNum: 1, pageSize: 10 });
  api.exportFile.mockReset().mockResolvedValue('操作日志-20260318.xlsx');
});

describe('operationLog', { timeout: 60_000 }, () => {
  it.each([
    ['time range → startTime/endTime', { userName: 'a', time: { preset: 'today', start: '2026-03-18 00:00:00', end: '2026-03-18 23:59:59' } }, { userName: 'a', startTime: '2026-03-18 00:00:00', endTime: '2026-03-18 23:59:59' }],
    ['half-open range', { time: { preset: 'please_select_time', start: '', end: '2026-03-18 23:59:59' } }, { endTime: '2026-03-18 23:59:59' }],
    ['no range', { module: 'user', action: 'delete' }, { module: 'user', action: 'delete' }],
  ])('toLogFilters: %s', (_n, input, want) => {
    expect(toLogFilters(input)).toEqual(want);
  });

  it('shows translated module and action, filters and exports with the applied filters', async () => {
    renderPage(<OperationLogPage />, 'operationLog', ['export']);
    expect(await screen.findByText('zhang')).toBeTruthy();
    expect(screen.getAllByText('删除').length).toBeGreaterThan(0);
    expect(screen.getAllByText('用户').length).toBeGreaterThan(0);
    fireEvent.change(screen.getByLabelText('操作人'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索|查\s*询/ }));
    await waitFor(() => expect(api.pageOperationLog).toHaveBeenLastCalledWith({ pageNum: 1, pageSize: 10, userName: 'admin' }));
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() =>
      expect(api.exportFile).toHaveBeenCalledWith({ url: '/authority-app/operationLog/export', method: 'POST', data: { userName: 'admin' }, fallbackName: 'operation-log.xlsx' }),
    );
  });

  it('shows the module, action, target and detail the server rendered in the reader\'s language, not the stored codes', async () => {
    renderPage(<OperationLogPage />, 'operationLog', []);
    expect(await screen.findByText('2 条报警')).toBeTruthy();
    expect(screen.getByText('报警管理')).toBeTruthy();
    expect(screen.getByText('报警处理')).toBeTruthy();
    expect(screen.getByText('处理状态：已处理；备注：ok')).toBeTruthy();
    expect(screen.queryByText(/oplog\.|state 1/)).toBeNull();
  });

  it('hides export without the export permission', async () => {
    renderPage(<OperationLogPage />, 'operationLog', []);
    await screen.findByText('zhang');
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
  });
});
