import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LockCommand } from '../../../api/alarm';
import { renderPage } from '../../access/testing';
import { calledWith, page, SLOW } from '../../manager/history/testing';
import PasswordRecordPage, { compartmentsOf } from '.';

const api = vi.hoisted(() => ({ passwordRecordPage: vi.fn() }));
vi.mock('../../../api/alarm', async (orig) => ({ ...(await orig<typeof import('../../../api/alarm')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));

const rows: LockCommand[] = [
  { id: 2, carId: 5, carNumber: '沪A·6N337', phone: '1', kind: 'unlock', params: 'compartments [1 2]', userName: 'dispatcher', status: 'ok', result: 0, reply: '', createdAt: '2026-03-01 10:00:00', doneAt: '2026-03-01 10:00:02' },
  { id: 1, carId: 6, carNumber: '沪B·12345', phone: '2', kind: 'lock', params: 'all compartments', userName: 'admin', status: 'timeout', result: null, reply: '', createdAt: '2026-03-01 09:00:00', doneAt: null },
  {
    id: 3,
    carId: 7,
    carNumber: '沪C·55555',
    phone: '3',
    kind: 'unlock',
    params: 'help request 7 (request ID 0x002A), all compartments',
    paramsText: '求助 7（请求 ID 0x002A），全部仓',
    userName: 'admin',
    status: 'ok',
    result: 0,
    reply: '成功',
    createdAt: '2026-03-01 08:00:00',
    doneAt: '2026-03-01 08:00:01',
  },
];

beforeEach(() => {
  api.passwordRecordPage.mockReset();
  api.passwordRecordPage.mockResolvedValue(page(rows));
});

describe('password record', { timeout: 60_000 }, () => {
  it.each([
    ['compartments [1 2]', [1, 2]],
    ['all compartments', []],
    ['something else', null],
  ])('compartments of %s', (p, want) => expect(compartmentsOf(p)).toEqual(want));

  it('lists who locked or unlocked which compartments and the result', async () => {
    renderPage(<PasswordRecordPage />, 'passwordRecord', []);
    await calledWith(api.passwordRecordPage, { pageNum: 1 });
    const unlock = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    expect(within(unlock).getByText('解封/开锁')).toBeTruthy();
    expect(within(unlock).getByText('dispatcher')).toBeTruthy();
    expect(within(unlock).getByText('成功')).toBeTruthy();
    const lock = screen.getByText('沪B·12345').closest('tr')!;
    expect(within(lock).getByText('全部仓')).toBeTruthy();
    expect(within(lock).getByText('超时')).toBeTruthy();
    // a help request's unlock: the server's text in the reader's language, not the stored English
    const help = screen.getByText('沪C·55555').closest('tr')!;
    expect(within(help).getByText('求助 7（请求 ID 0x002A），全部仓')).toBeTruthy();
    expect(screen.queryByText(/compartments|help request|success/)).toBeNull();
  });
});
