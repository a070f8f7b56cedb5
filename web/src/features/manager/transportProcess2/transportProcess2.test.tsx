import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../access/testing';
import { page, SLOW } from '../history/testing';
import TransportProcessBoard, { groupByPhase, REFRESH_MS } from '.';
import { trip } from '../oilTransportProcess/fixtures';

const api = vi.hoisted(() => ({ processPage: vi.fn() }));
vi.mock('../../../api/transportProcess', async (orig) => ({ ...(await orig<typeof import('../../../api/transportProcess')>()), ...api }));

const now = 1_780_000_000_000 + 8 * 3_600_000;
const trips = [
  trip({ id: 1, plate: '沪A·1', state: 'DISPATCHED', late: false, flagged: false, stateAt: now - 30 * 60_000 }),
  trip({ id: 2, plate: '沪A·2', state: 'IN_TRANSIT', late: false, flagged: false, stateAt: now - 10 * 60_000 }),
  trip({ id: 3, plate: '沪A·3', state: 'IN_TRANSIT', late: true, flagged: false, stateAt: now - 5 * 60_000 }),
  trip({ id: 4, plate: '沪A·4', state: 'DIFF_FLAGGED', late: false, flagged: true, stateAt: now - 60 * 60_000 }),
  trip({ id: 5, plate: '沪A·5', state: 'CLOSED', late: false, flagged: false, stateAt: now - 65 * 60_000 }),
];

beforeEach(() => {
  api.processPage.mockReset();
  api.processPage.mockResolvedValue(page(trips));
});

describe('transport board', { timeout: 60_000 }, () => {
  it('groups trips by phase, late first', () => {
    const g = groupByPhase(trips);
    expect(g.transit.map((t) => t.id)).toEqual([3, 2]);
    expect(g.waiting).toHaveLength(1);
    expect(g.review).toHaveLength(1);
    expect(g.closed).toHaveLength(1);
    expect(g.loading).toHaveLength(0);
    expect(REFRESH_MS).toBe(15_000);
  });
  it('shows a column per phase with counts and cards', async () => {
    renderPage(<TransportProcessBoard now={() => now} />, 'transportProcess2', []);
    await waitFor(() => expect(api.processPage).toHaveBeenCalledWith(expect.objectContaining({ board: true, pageSize: 500 })), SLOW);
    const transit = await screen.findByTestId('phase-transit', {}, SLOW);
    await within(transit).findByText('沪A·3', {}, SLOW);
    const cards = within(transit).getAllByTestId('board-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText(/逾期/)).toBeTruthy();
    expect(within(cards[1]).getByText('本阶段已 0 小时 10 分')).toBeTruthy();
    expect(within(screen.getByTestId('phase-loading')).getByText('暂无')).toBeTruthy();
    expect(within(screen.getByTestId('phase-review')).getByText('沪A·4')).toBeTruthy();
    expect(screen.getByText('待装')).toBeTruthy();
  });
});
