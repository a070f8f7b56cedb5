import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Overview, Tiles } from '../../../api/overview';
import { renderPage } from '../../access/testing';
import { SLOW } from '../history/testing';
import StatisticPage from '.';

const api = vi.hoisted(() => ({ selectTrafficStatistics: vi.fn(), statesNow: vi.fn(), overviewTrips: vi.fn() }));
vi.mock('../../../api/overview', async (orig) => ({ ...(await orig<typeof import('../../../api/overview')>()), ...api }));
vi.mock('../../../api/group', async (orig) => ({ ...(await orig<typeof import('../../../api/group')>()), groupTrees: vi.fn().mockResolvedValue([]) }));
// ECharts needs a canvas: the charts are stand-ins that expose their click
vi.mock('./Charts', () => ({
  DayChart: ({ days, onDay }: { days: { day: string }[]; onDay: (d: string) => void }) => (
    <button data-testid="chart-day" onClick={() => onDay(days[1].day)}>
      days {days.length}
    </button>
  ),
  NamedBars: ({ rows, onBar, testId }: { rows: { name: string }[]; onBar?: (r: unknown) => void; testId: string }) => (
    <button data-testid={testId} onClick={() => onBar?.(rows[0])}>
      {rows.map((r) => r.name).join(',')}
    </button>
  ),
}));

const tiles = (over: Partial<Tiles>): Tiles => ({
  key: 0, trips: 0, shippedVt: 0, shippedV20: 0, shippedT: 0, receivedV20: 0, lossL: 0, km: 0, tonKm: 0, timedTrips: 0,
  abnormalOpenings: 0, overAllowance: 0, lossRatePct: 0, avgOutToArrivalMin: -1, lockTampered: 0, sealIncidents: 0, ...over,
});

const overview: Overview = {
  from: '2026-11-01', to: '2026-11-02', prevFrom: '2026-10-30', prevTo: '2026-10-31',
  current: tiles({ trips: 110, shippedV20: 3_000_000, lossL: 300, lossRatePct: 0.01, overAllowance: 4, lockTampered: 2, avgOutToArrivalMin: 75.5 }),
  previous: tiles({ trips: 100, shippedV20: 2_900_000, lossL: 250, lossRatePct: 0.0086, overAllowance: 5, avgOutToArrivalMin: 70 }),
  byDay: [{ day: '2026-11-01', ...tiles({ trips: 60 }) }, { day: '2026-11-02', ...tiles({ trips: 50 }) }],
  byCompany: [{ name: '华东分公司', ...tiles({ key: 7, trips: 110 }) }],
  byProduct: [{ name: '92#汽油', ...tiles({ key: 3, trips: 110 }) }],
};

beforeEach(() => {
  Object.values(api).forEach((f) => f.mockReset());
  api.selectTrafficStatistics.mockResolvedValue(overview);
  api.statesNow.mockResolvedValue({ at: '2026-11-03 10:00:00', total: 3, states: [{ state: 'IN_TRANSIT', count: 2 }, { state: 'DIFF_FLAGGED', count: 1 }] });
  api.overviewTrips.mockResolvedValue({ list: [], total: 4, pageNum: 1, pageSize: 20,
    totals: { trips: 4, shippedV20: 100000, receivedV20: 99900, lossL: 100, lossRatePct: 0.1, overCount: 4, loadedKm: 300, tonKm: 0, avgOutToArrivalMin: 60, timedTrips: 4 } });
});

describe('statistic page', { timeout: 150_000 }, () => {
  it('shows the tiles against the previous period and drills down from a tile, a day and a company', async () => {
    renderPage(<StatisticPage />, 'statistic', ['export']);
    await waitFor(() => expect(api.selectTrafficStatistics).toHaveBeenCalled(), SLOW);
    expect(api.selectTrafficStatistics.mock.calls[0][0].start).toMatch(/^\d{4}-\d{2}-01$/); // this month by default
    const trips = await screen.findByTestId('tile-trips', {}, SLOW);
    expect(within(trips).getByTestId('tile-trips-value').getAttribute('data-value')).toBe('110');
    expect(within(trips).getByText(/10\.0 %/)).toBeTruthy(); // 110 against 100
    expect(within(trips).getByText(/上期 100/)).toBeTruthy();
    // a rise of the loss is a warning, a fall of the over-allowance trips good news
    expect(within(screen.getByTestId('tile-lossL')).getByText(/20\.0 %/).closest('.ov-up-bad')).toBeTruthy();
    expect(within(screen.getByTestId('tile-overAllowance')).getByText(/20\.0 %/).closest('.ov-down-good')).toBeTruthy();
    // nothing to compare lock tampering with
    expect(within(screen.getByTestId('tile-lockTampered')).getByText('无可比')).toBeTruthy();
    expect(within(screen.getByTestId('states-now')).getByText('运输中')).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();

    fireEvent.click(screen.getByTestId('tile-overAllowance'));
    await waitFor(() => expect(api.overviewTrips).toHaveBeenCalled(), SLOW);
    expect(api.overviewTrips.mock.calls[0][0]).toMatchObject({ over: 'over', pageNum: 1 });
    expect((await screen.findByTestId('drill-count', {}, SLOW)).textContent).toContain('共 4 趟');

    fireEvent.click(screen.getByTestId('chart-day'));
    await waitFor(() => expect(api.overviewTrips.mock.calls.some((c) => c[0].day === '2026-11-02')).toBe(true), SLOW);
    fireEvent.click(screen.getByTestId('chart-company'));
    await waitFor(() => expect(api.overviewTrips.mock.calls.some((c) => c[0].groupId === 7)).toBe(true), SLOW);
  });
});

describe('statistic page styles in the dark', () => {
  it('draws no text in a fixed black that vanishes on the dark background', async () => {
    const css = (await import('./statistic.css?raw')).default as string;
    const fixed = css.split('\n').filter((l) => /(^|[\s;{])color:\s*rgba\(0, 0, 0/.test(l));
    expect(fixed).toEqual([]);
  });
});
