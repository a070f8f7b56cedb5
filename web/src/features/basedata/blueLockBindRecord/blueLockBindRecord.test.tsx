import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import type { BindRecord } from '../blueLock/api';
import BlueLockBindRecordPage, { toBindFilters } from '.';

const rows: BindRecord[] = [
  { id: 2, t: '2026-11-01 09:00:00', lockId: 1, serial: 'TW4G-0001', kind: 2, carId: 5, plate: '沪A·6N337', compartment: 2, device: 3, action: 2, userName: 'admin', reason: '返厂', groupName: '华东分公司' },
];

const api = vi.hoisted(() => ({ bindPage: vi.fn() }));
vi.mock('../blueLock/api', async (orig) => ({ ...(await orig<typeof import('../blueLock/api')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([]) }));

beforeEach(() => {
  api.bindPage.mockReset();
  api.bindPage.mockResolvedValue({ list: rows, total: 1, pageNum: 1, pageSize: 10 } satisfies Page<BindRecord>);
});

describe('blueLockBindRecord page', { timeout: 180_000 }, () => {
  it('turns the time range into startTime/endTime', () => {
    expect(toBindFilters({ time: { preset: 'today', start: '2026-11-01 00:00:00', end: '2026-11-01 23:59:59' }, action: 1 })).toEqual({
      action: 1,
      startTime: '2026-11-01 00:00:00',
      endTime: '2026-11-01 23:59:59',
    });
  });

  it('lists who bound or unbound which lock where and why', async () => {
    renderPage(<BlueLockBindRecordPage />, 'blueLockBindRecord', []);
    const row = (await screen.findByText('TW4G-0001', {}, { timeout: 5000 })).closest('tr')!;
    for (const text of ['解绑', '沪A·6N337', '底阀', 'admin', '返厂', '4G 远程锁']) expect(within(row).getByText(text)).toBeTruthy();
  });
});
