import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrackDTO } from '../../../api/track';
import { makeTrack, parseServerTime } from '../../../lib/playback';
import type { HistoryTrip, TripStep } from './api';
import { currentStep, replayWindow, sliderAt, stepPlace } from './model';

const api = vi.hoisted(() => ({ findWaybillHistory: vi.fn(), tripDetail: vi.fn(), fetchTrack: vi.fn() }));
vi.mock('./api', async (orig) => ({ ...(await orig<typeof import('./api')>()), findWaybillHistory: api.findWaybillHistory, tripDetail: api.tripDetail }));
vi.mock('../../../api/track', () => ({ fetchTrack: api.fetchTrack }));
vi.mock('../trackReplaying/TrackMap', () => ({
  TrackMap: ({ pos }: { pos: { lat: number } | null }) => <div data-testid="track-map">{pos ? pos.lat.toFixed(3) : ''}</div>,
}));

import HistoryWaybillPage from '.';

const T = (s: string) => parseServerTime(s);
const trip: HistoryTrip = {
  waybillId: 7, waybillNo: 'G0001YD202611230001', carId: 5, plate: '沪A·6N337', state: 'CLOSED', depotName: '上海油库', destinations: '徐汇加油站',
  createdAt: T('2026-11-23 07:00:00'), dispatchedAt: T('2026-11-23 07:50:00'), departAt: T('2026-11-23 08:00:00'), arriveAt: T('2026-11-23 08:20:00'),
  receivedAt: T('2026-11-23 08:40:00'), closedAt: T('2026-11-23 08:41:00'), stateAt: T('2026-11-23 08:41:00'),
  startAt: T('2026-11-23 07:50:00'), endAt: T('2026-11-23 08:41:00'),
};
const step = (id: number, from: string, to: string, t: string, evidence: number): TripStep => ({ id, from, to, evidence, cause: 1, t: T(t), lat: 31.2, lon: 121.4 });
const steps = [step(2, 'SEALED', 'IN_TRANSIT', '2026-11-23 08:00:00', 5), step(1, 'PLANNED', 'DISPATCHED', '2026-11-23 07:50:00', 1), step(3, 'IN_TRANSIT', 'ARRIVED', '2026-11-23 08:20:00', 6)];
const dto: TrackDTO = {
  carId: 5, plate: '沪A·6N337', stops: [], alarms: [], truncated: false,
  points: [
    { time: '2026-11-23 07:50:00', lng: 121.4, lat: 31.1, speed: 0, direction: 0, alarm: 0, status: 3, mileage: null },
    { time: '2026-11-23 08:00:00', lng: 121.4, lat: 31.2, speed: 50, direction: 0, alarm: 0, status: 3, mileage: null },
    { time: '2026-11-23 08:20:00', lng: 121.4, lat: 31.3, speed: 0, direction: 0, alarm: 0, status: 3, mileage: null },
  ],
};

function renderPage() {
  const router = createMemoryRouter([{ path: '/manager/historyWaybill', element: <HistoryWaybillPage /> }], { initialEntries: ['/manager/historyWaybill'] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

describe('historyWaybill model', () => {
  it('places steps and finds the current one', () => {
    expect(stepPlace({ ...steps[0], lat: 31_200_000, lon: 121_400_000 })).toEqual({ lat: 31.2, lng: 121.4 });
    expect(stepPlace({ ...steps[0], lat: 0, lon: 0 })).toBeNull();
    const sorted = [steps[1], steps[0], steps[2]];
    expect(currentStep(sorted, T('2026-11-23 07:00:00'))).toBe(-1);
    expect(currentStep(sorted, T('2026-11-23 08:10:00'))).toBe(1);
    const tr = makeTrack([{ t: 0, lat: 0, lng: 0, speed: 0, direction: 0 }, { t: 1000, lat: 0, lng: 0, speed: 0, direction: 0 }]);
    expect([sliderAt(tr, -5), sliderAt(tr, 500), sliderAt(tr, 5000)]).toEqual([0, 500, 1000]);
    const [a, b] = replayWindow(0, 40 * 24 * 3_600_000);
    expect(b - a).toBeLessThan(31 * 24 * 3_600_000);
  });
});

describe('historyWaybill page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    api.findWaybillHistory.mockReset().mockResolvedValue({ list: [trip], total: 1, pageNum: 1, pageSize: 20 });
    api.tripDetail.mockReset().mockResolvedValue({ steps });
    api.fetchTrack.mockReset().mockResolvedValue(dto);
  });

  it('replays a picked trip between dispatch and close, with its steps in time order; a step seeks the replay', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('wbhist-trip'));
    await waitFor(() => expect(api.fetchTrack).toHaveBeenCalledWith(5, '2026-11-23 07:50:00', '2026-11-23 08:41:00'));
    expect(api.tripDetail).toHaveBeenCalledWith(7);
    const items = await screen.findAllByTestId('wbhist-step');
    expect(items.map((i) => i.textContent?.slice(0, 12))).toEqual([
      expect.stringContaining('已计划 → 已派单'),
      expect.stringContaining('已施封 → 运输中'),
      expect.stringContaining('运输中 → 已到站'),
    ]);
    expect(await screen.findByTestId('track-player')).toBeTruthy();
    fireEvent.click(items[2]);
    expect(screen.getByTestId('track-now').textContent).toContain('2026-11-23 08:20:00');
    expect(screen.getByTestId('track-map').textContent).toBe('31.300');
  });

  it('says so when the steps cannot be read, and still replays', async () => {
    api.tripDetail.mockRejectedValue(new Error('请求的资源不存在'));
    renderPage();
    fireEvent.click(await screen.findByTestId('wbhist-trip'));
    expect(await screen.findByText('运单环节暂不可用')).toBeTruthy();
    expect(await screen.findByTestId('track-player')).toBeTruthy();
  });
});
