import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { BusinessError } from '../../../api/client';
import VideoReplay2Page from '.';

const api = vi.hoisted(() => ({
  findCars: vi.fn(),
  carChannels: vi.fn(),
  historyVideoByTime2: vi.fn(),
  historyVideo: vi.fn(),
  historyVideoControl: vi.fn(),
  fetchTrack: vi.fn(),
}));
vi.mock('../../../api/monitor', () => ({ findCars: api.findCars }));
vi.mock('../../../api/fleet', () => ({ carChannels: api.carChannels }));
vi.mock('../../../api/track', () => ({ fetchTrack: api.fetchTrack }));
vi.mock('../../../api/video', () => ({
  historyVideoByTime2: api.historyVideoByTime2,
  historyVideo: api.historyVideo,
  historyVideoControl: api.historyVideoControl,
  mediaSocketUrl: (p: string) => `ws://x${p}`,
}));
// Leaflet draws on a canvas jsdom lacks; mpegts.js needs MSE: the page around them is what is checked.
vi.mock('../trackReplaying/TrackMap', () => ({ TrackMap: () => <div data-testid="track-map" /> }));
vi.mock('../videoLive/player', () => ({ livePlayerSupported: () => false, createLivePlayer: vi.fn() }));

const rec = (channelNo: number, startTime: string, endTime: string) => ({ channelNo, startTime, endTime, alarm: '0000000000000000', mediaType: 0, streamType: 1, storageType: 1, size: 1_048_576 });
const SLOW = { timeout: 30_000 };

function renderPage() {
  const router = createMemoryRouter([{ path: '/manager/videoReplaying2', element: <VideoReplay2Page /> }], { initialEntries: ['/manager/videoReplaying2?carId=5'] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

async function query() {
  const q = await screen.findByTestId('r2-query');
  await waitFor(() => expect((q as HTMLButtonElement).disabled).toBe(false)); // the car's channels came ticked
  fireEvent.click(q);
}

beforeEach(() => {
  api.findCars.mockReset().mockResolvedValue({ list: [{ carId: 5, plate: '沪A·6N337', groupName: '华东分公司' }], total: 1, pageNum: 1, pageSize: 30 });
  api.carChannels.mockReset().mockResolvedValue([]);
  api.historyVideoByTime2.mockReset();
  api.historyVideo.mockReset().mockImplementation((carId: number, channelNo: number, startTime: string, endTime: string) =>
    Promise.resolve({ token: `tok${channelNo}`, carId, plate: '沪A·6N337', channelNo, flvUrl: `/video-app/replay/tok${channelNo}/flv`, startTime, endTime, paused: false, speed: 1, receiving: false }),
  );
  api.historyVideoControl.mockReset().mockResolvedValue({});
  api.fetchTrack.mockReset().mockResolvedValue({ carId: 5, plate: '沪A·6N337', points: [], stops: [], alarms: [], truncated: false });
});

describe('videoReplaying2 page', () => {
  it('asks for the ticked channels, lays their recordings on one timeline and starts them all at the same time', SLOW, async () => {
    // channels 1 and 2 recorded the whole range, 3 and 4 nothing
    api.historyVideoByTime2.mockImplementation((_car: number, _channels: number[], start: string, end: string) => Promise.resolve([rec(1, start, end), rec(2, start, end)]));
    renderPage();
    await query();
    await waitFor(() => expect(api.historyVideoByTime2).toHaveBeenCalled());
    const [carId, channels, start, end] = api.historyVideoByTime2.mock.calls[0];
    expect([carId, channels]).toEqual([5, [1, 2, 3, 4]]); // a car without configured channels: 1–4, all ticked
    expect(new Date(end.replace(' ', 'T')).getTime() - new Date(start.replace(' ', 'T')).getTime()).toBe(4 * 3600_000);
    await screen.findByTestId('r2-grid');
    expect(screen.getByTestId('r2-timeline').querySelectorAll('.tw-r2-lane')).toHaveLength(4);
    expect(screen.getByTestId('r2-lane-2').querySelectorAll('.tw-replay-seg')).toHaveLength(1);
    expect(screen.getByTestId('r2-lane-3').querySelectorAll('.tw-replay-seg')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('r2-play'));
    await waitFor(() => expect(api.historyVideo).toHaveBeenCalledTimes(2)); // channels 1 and 2: 3 and 4 have nothing
    const starts = api.historyVideo.mock.calls.map((c) => [c[1], c[2], c[3]]);
    expect(starts).toEqual([
      [1, start, end],
      [2, start, end],
    ]);
    await waitFor(() => expect(screen.getByTestId('r2-tile-3').dataset.state).toBe('none'));
    expect(screen.getByTestId('r2-status-3').textContent).toBe('此时段没有录像');
    // this browser cannot play: the tiles say so, in words
    await waitFor(() => expect(screen.getByTestId('r2-status-1').textContent).toBe('本浏览器不支持视频播放'));

    fireEvent.click(screen.getByTestId('r2-stop'));
    await waitFor(() => expect(api.historyVideoControl).toHaveBeenCalledWith(5, 'tok1', 'stop', {}, false));
    expect(api.historyVideoControl).toHaveBeenCalledWith(5, 'tok2', 'stop', {}, false);
  });

  it('says when the range holds no recordings', SLOW, async () => {
    api.historyVideoByTime2.mockResolvedValue([]);
    renderPage();
    await query();
    expect(await screen.findByText('该时间范围内所选通道没有录像')).toBeTruthy();
    expect((screen.getByTestId('r2-play') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when the terminal is offline', SLOW, async () => {
    api.historyVideoByTime2.mockRejectedValue(new BusinessError('终端不在线', { code: 0, message: '终端不在线', success: 0, data: { reason: 'offline' } } as never));
    renderPage();
    await query();
    expect((await screen.findByTestId('r2-offline')).textContent).toContain('终端不在线（沪A·6N337），无法查询录像');
  });

  it('asks for nothing until a channel is ticked', SLOW, async () => {
    api.carChannels.mockResolvedValue([{ channelNo: 2, name: '罐口', enabled: true }]);
    renderPage();
    const box = await screen.findByTestId('r2-ch-2');
    const q = screen.getByTestId('r2-query') as HTMLButtonElement;
    await waitFor(() => expect(q.disabled).toBe(false));
    const input = box.closest('label')!.querySelector('input')!;
    await waitFor(() => expect(input.checked).toBe(true)); // the car's channels come ticked
    fireEvent.click(input);
    await waitFor(() => expect(input.checked).toBe(false));
    await waitFor(() => expect(q.disabled).toBe(true));
    expect(screen.getByText('2 · 罐口')).toBeTruthy();
  });
});
