import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlarmRecord } from '../../../api/alarm';
import { renderPage } from '../../access/testing';
import { calledWith, page, SLOW } from '../../manager/history/testing';
import BlueLockLocalRecordPage from '.';

const api = vi.hoisted(() => ({ lockRecordPage: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));

const rows: AlarmRecord[] = [
  { id: 4, carId: 5, carNumber: '沪A·6N337', groupId: 3, type: 'lockOpened', typeName: '非授权开锁', level: 3, startTime: '2026-03-01 10:00:00', endTime: '2026-03-01 10:00:00',
    lng: 121.47, lat: 31.23, speed: 0, detail: '开锁的仓：2', state: 0, handlerName: '', handledTime: null, remark: '' },
];

beforeEach(() => {
  api.lockRecordPage.mockReset();
  api.lockRecordPage.mockResolvedValue(page(rows));
});

describe('local lock record', { timeout: 60_000 }, () => {
  it('lists the locks opened without a platform unlock', async () => {
    renderPage(<BlueLockLocalRecordPage />, 'blueLockLocalRecord', []);
    await calledWith(api.lockRecordPage, { pageNum: 1 });
    const row = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('开锁的仓：2')).toBeTruthy();
    expect(within(row).getByText('未处理')).toBeTruthy();
  });
});
