import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { TrackDTO } from '../../../api/track';
import { parseServerTime } from '../../../lib/playback';
import { toModel } from './model';
import TrackReplayPage from '.';

const api = vi.hoisted(() => ({ fetchTrack: vi.fn(), findCars: vi.fn() }));
vi.mock('../../../api/track', () => ({ fetchTrack: api.fetchTrack }));
vi.mock('../../../api/monitor', () => ({ findCars: api.findCars }));
// The map draws with Leaflet on a canvas, which jsdom lacks; the test checks what surrounds it.
vi.mock('./TrackMap', () => ({ TrackMap: ({ pos }: { pos: { lat: number } | null }) => <div data-testid="track-map">{pos ? pos.lat.toFixed(3) : ''}</div> }));

const SLOW = { timeout: 5000 };
const dto: TrackDTO = {
  carId: 5,
  plate: '沪A·6N337',
  points: [
    { time: '2026-11-23 08:00:00', lng: 121.4, lat: 31.2, speed: 0, direction: 0, alarm: 0, status: 3, mileage: 100 },
    { time: '2026-11-23 08:10:00', lng: 121.4, lat: 31.3, speed: 60, direction: 0, alarm: 1, status: 3, mileage: 111 },
    { time: '2026-11-23 08:20:00', lng: 121.5, lat: 31.3, speed: 0, direction: 90, alarm: 0, status: 3, mileage: 120 },
    { time: 'garbage', lng: 121.5, lat: 31.3, speed: 0, direction: 90, alarm: 0, status: 3, mileage: null },
  ],
  stops: [{ start: '2026-11-23 08:20:00', end: '2026-11-23 08:40:00', minutes: 20, lng: 121.5, lat: 31.3 }],
  alarms: [{ time: '2026-11-23 08:10:00', lng: 121.4, lat: 31.3, speed: 60, alarm: 1, names: ['紧急报警'] }],
  truncated: false,
};

function renderPage(path = '/manager/trackReplaying?carId=5') {
  const router = createMemoryRouter([{ path: '/manager/trackReplaying', element: <TrackReplayPage /> }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.fetchTrack.mockReset().mockResolvedValue(dto);
  api.findCars.mockReset().mockResolvedValue({ list: [{ carId: 5, plate: '沪A·6N337', groupName: '华东分公司' }], total: 1, pageNum: 1, pageSize: 30 });
});

describe('track model', () => {
  it('orders stops and alarms and drops unreadable times', () => {
    const m = toModel(dto);
    expect(m.track.points).toHaveLength(3);
    expect(m.track.start).toBe(parseServerTime('2026-11-23 08:00:00'));
    expect(m.events.map((e) => e.kind)).toEqual(['alarm', 'stop']);
    expect(m.stops).toEqual([{ start: parseServerTime('2026-11-23 08:20:00'), end: parseServerTime('2026-11-23 08:40:00') }]);
  });
});

describe('track replay page', { timeout: 30_000 }, () => {
  it('queries the car from the URL over today and lists the stops and alarms', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('track-query', {}, SLOW));
    await waitFor(() => expect(api.fetchTrack).toHaveBeenCalled());
    const [carId, start, end] = api.fetchTrack.mock.calls[0];
    expect(carId).toBe(5);
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(end >= start).toBe(true);
    expect(await screen.findByText('停车 20 分钟', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('紧急报警')).toBeTruthy();
    expect(screen.getByTestId('track-summary').textContent).toContain('3');
    expect(screen.getByTestId('track-now').textContent).toContain('2026-11-23 08:00:00');
  });

  it('seeks to an event when it is clicked', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('track-query', {}, SLOW));
    fireEvent.click(await screen.findByText('紧急报警', {}, SLOW));
    expect(screen.getByTestId('track-now').textContent).toContain('2026-11-23 08:10:00');
    expect(screen.getByTestId('track-map').textContent).toBe('31.300');
  });

  it('says when there are no positions', async () => {
    api.fetchTrack.mockResolvedValue({ ...dto, points: [], stops: [], alarms: [] });
    renderPage();
    fireEvent.click(await screen.findByTestId('track-query', {}, SLOW));
    expect(await screen.findByText('该时间范围内没有定位数据', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('track-player')).toBeNull();
  });
});
