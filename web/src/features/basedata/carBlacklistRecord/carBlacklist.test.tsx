import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../../api/types';
import { renderPage } from '../../access/testing';
import type { BlackEntry } from '../blueLock/api';
import CarBlacklistPage, { toBlackBody } from '.';

const base = { groupId: 1, groupName: '华东分公司', decidedBy: 'admin', createdAt: '2026-11-01 08:00:00', liftedAt: '', liftedBy: '', liftReason: '' };
const entries: BlackEntry[] = [
  { ...base, id: 1, carId: 5, plate: '沪A·6N337', reason: '铅封破损', startAt: '2026-11-01 08:00:00', endAt: '', state: 'active' },
  { ...base, id: 2, carId: 6, plate: '苏E·71C26', reason: '年检过期', startAt: '2026-10-01 08:00:00', endAt: '', state: 'lifted', liftedAt: '2026-10-10 08:00:00', liftedBy: 'admin', liftReason: '已年检' },
];

const api = vi.hoisted(() => ({ blackPage: vi.fn(), blackAdd: vi.fn(), blackLift: vi.fn() }));
vi.mock('../blueLock/api', async (orig) => ({ ...(await orig<typeof import('../blueLock/api')>()), ...api }));
vi.mock('../../../api/group', () => ({ groupTrees: vi.fn().mockResolvedValue([]) }));

const SLOW = { timeout: 5000 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.blackPage.mockResolvedValue({ list: entries, total: 2, pageNum: 1, pageSize: 10 } satisfies Page<BlackEntry>);
});

describe('carBlacklistRecord page', { timeout: 180_000 }, () => {
  it('sends an empty start as now and an empty end as until lifted', () => {
    expect(toBlackBody({ carId: 3, reason: ' x ', period: null })).toEqual({ carId: 3, reason: 'x' });
    const s = dayjs('2026-11-02 08:00:00');
    expect(toBlackBody({ carId: 3, reason: 'x', period: [s, null] })).toEqual({ carId: 3, reason: 'x', startAt: '2026-11-02 08:00:00' });
  });

  it('shows the states, "until lifted" and who lifted; lifting asks for a reason', async () => {
    api.blackLift.mockResolvedValue({ ...entries[0], state: 'lifted' });
    renderPage(<CarBlacklistPage />, 'carBlacklistRecord', ['lift']);
    const active = (await screen.findByText('沪A·6N337', {}, SLOW)).closest('tr')!;
    expect(within(active).getByText('生效中')).toBeTruthy();
    expect(within(active).getByText('直至解除')).toBeTruthy();
    const lifted = screen.getByText('苏E·71C26').closest('tr')!;
    expect(within(lifted).getByTestId('lifted').textContent).toBe('2026-10-10 08:00:00admin · 已年检');
    expect(within(lifted).queryByRole('button', { name: /解\s*除/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /加入黑名单/ })).toBeNull();
    fireEvent.click(within(active).getByRole('button', { name: /解\s*除/ }));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入原因', {}, SLOW)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('解除原因'), { target: { value: '已整改' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(api.blackLift).toHaveBeenCalledWith(1, '已整改'), SLOW);
  });
});
