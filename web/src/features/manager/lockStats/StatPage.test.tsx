import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import { StatPage } from './StatPage';

const api = vi.hoisted(() => ({ statPage: vi.fn(), statRows: vi.fn() }));
// ECharts draws on a canvas jsdom has not: the chart's option is tested in model.test.ts
vi.mock('../../police/abnormal/Chart', () => ({ Chart: ({ testId }: { testId: string }) => <div data-testid={testId} /> }));
vi.mock('../../../api/lockStats', async (orig) => ({ ...(await orig<typeof import('../../../api/lockStats')>()), ...api }));

const figures = { opened: 3, openedRemote: 2, openedBle: 1, openedKey: 0, openedOther: 0, openedInside: 1, openedOutside: 2, closed: 1, tampered: 0, lowBattery: 0, offlineEvents: 1, offlineS: 7260 };

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.statPage.mockResolvedValue({
    list: [{ period: 202648, label: '2026-W48 (11-23～11-29)', from: '2026-11-23', to: '2026-11-29', carId: 7, name: '沪A00001', detail: '华东分公司', figures }],
    total: 1,
    pageNum: 1,
    pageSize: 10,
    from: '2026-11-23',
    to: '2026-11-29',
    totals: figures,
    chart: [],
  });
  api.statRows.mockResolvedValue({ list: [], total: 2, pageNum: 1, pageSize: 20, shape: 'events', sum: 2 });
});

describe('lock statistics page', { timeout: 150_000 }, () => {
  it('shows the rows, the totals and whole weeks, and a number opens the events behind it', async () => {
    renderPage(<StatPage page="blueLockWeekStat" />, 'blueLockWeekStat', ['export']);
    await waitFor(() => expect(api.statPage).toHaveBeenCalled(), SLOW);
    expect(api.statPage.mock.calls[0][0]).toBe('blueLockWeekStat');
    expect(api.statPage.mock.calls[0][1]).toMatchObject({ by: 'car', start: expect.stringMatching(/ 00:00:00$/), end: expect.stringMatching(/ 23:59:59$/) });
    const row = (await screen.findByText('沪A00001', {}, SLOW)).closest('tr')!;
    expect(within(row).getByText('2026-W48')).toBeTruthy();
    expect(within(row).getByText('11-23～11-29')).toBeTruthy();
    expect(within(row).getByText('2 小时 01 分')).toBeTruthy();
    expect(screen.getByText(/按整周统计/)).toBeTruthy();
    expect(screen.getByTestId('lockstats-chart')).toBeTruthy();
    const totals = screen.getByTestId('totals-row');
    expect(within(totals).getByTestId('total-opened').textContent).toBe('3');
    expect(within(totals).getByTestId('total-tampered').textContent).toBe('0');
    fireEvent.click(within(row).getAllByTestId('cell-openedRemote')[0]);
    await waitFor(() => expect(api.statRows).toHaveBeenCalled(), SLOW);
    expect(api.statRows.mock.calls[0][0]).toMatchObject({ kind: 'lock', column: 'openedRemote', from: '2026-11-23', to: '2026-11-29', carId: 7, pageNum: 1 });
    expect((await screen.findByTestId('drill-sum', {}, SLOW)).textContent).toBe('共 2 条记录');
    // the drawer counted 2 where the page said 2: no warning
    expect(screen.queryByText(/数据已在打开后更新/)).toBeNull();
  });
});
