import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ViewingRecord } from '../../../api/carPassword';
import { renderPage } from '../../access/testing';
import { calledWith, page, search, SLOW } from '../../manager/history/testing';
import PasswordViewingRecordPage from '.';

const api = vi.hoisted(() => ({ pageViewingRecords: vi.fn() }));
vi.mock('../../../api/carPassword', async (orig) => ({ ...(await orig<typeof import('../../../api/carPassword')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));

const rows: ViewingRecord[] = [
  { id: 2, carId: 6, carNumber: '沪B·12345', groupId: 3, groupName: '上海车队', userId: 1, userName: 'admin', viewedAt: '2026-03-01 11:00:00', clientIp: '10.1.2.3', reason: '司机无信号' },
  { id: 1, carId: 7, carNumber: '冀A·3K281', groupId: 4, groupName: '华北分公司', userId: 2, userName: 'dispatcher', viewedAt: '2026-03-01 09:00:00', clientIp: '127.0.0.1', reason: '' },
];

beforeEach(() => {
  api.pageViewingRecords.mockReset();
  api.pageViewingRecords.mockResolvedValue(page(rows));
  document.body.innerHTML = '';
});

describe('password viewing record page', { timeout: 60_000 }, () => {
  it('lists who viewed which password, when, from where and why, over the last 7 days', async () => {
    renderPage(<PasswordViewingRecordPage />, 'passwordViewingRecord', ['export']);
    await calledWith(api.pageViewingRecords, { pageNum: 1 });
    const q = api.pageViewingRecords.mock.calls[0][0] as Record<string, unknown>;
    expect(q.startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const r = (await screen.findByText('沪B·12345', {}, SLOW)).closest('tr')!;
    expect(within(r).getByText('admin')).toBeTruthy();
    expect(within(r).getByText('10.1.2.3')).toBeTruthy();
    expect(within(r).getByText('司机无信号')).toBeTruthy();
    expect(within(r).getByText('2026-03-01 11:00:00')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
  });

  it('filters by user name (trimmed) and hides export without its code', async () => {
    renderPage(<PasswordViewingRecordPage />, 'passwordViewingRecord', []);
    await screen.findByText('沪B·12345', {}, SLOW);
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    fireEvent.change(document.querySelector('input#userName')!, { target: { value: ' disp ' } });
    search();
    await calledWith(api.pageViewingRecords, { userName: 'disp' });
  });
});
