import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import VideoReplayPage from '.';

const api = vi.hoisted(() => ({
  findCars: vi.fn(),
  carChannels: vi.fn(),
  sendGetVideoList: vi.fn(),
  historyVideo: vi.fn(),
  historyVideoControl: vi.fn(),
  fetchTrack: vi.fn(),
}));
vi.mock('../../../api/monitor', () => ({ findCars: api.findCars }));
vi.mock('../../../api/fleet', () => ({ carChannels: api.carChannels }));
vi.mock('../../../api/track', () => ({ fetchTrack: api.fetchTrack }));
vi.mock('../../../api/video', () => ({
  sendGetVideoList: api.sendGetVideoList,
  historyVideo: api.historyVideo,
  historyVideoControl: api.historyVideoControl,
  mediaSocketUrl: (p: string) => `ws://x${p}`,
}));
// Leaflet draws on a canvas jsdom lacks; mpegts.js needs MSE: the page around them is what is checked.
vi.mock('../trackReplaying/TrackMap', () => ({ TrackMap: () => <div data-testid="track-map" /> }));
vi.mock('../videoLive/player', () => ({ livePlayerSupported: () => false, createLivePlayer: vi.fn() }));

const rec = (channelNo: number, startTime: string, endTime: string) => ({ channelNo, startTime, endTime, alarm: '0000000000000000', mediaType: 0, streamType: 1, storageType: 1, size: 9_409_500 });
const SLOW = { timeout: 30_000 };

function renderPage() {
  const router = createMemoryRouter([{ path: '/manager/videoReplaying', element: <VideoReplayPage /> }], { initialEntries: ['/manager/videoReplaying?carId=5'] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.findCars.mockReset().mockResolvedValue({ list: [{ carId: 5, plate: '沪A·6N337', groupName: '华东分公司' }], total: 1, pageNum: 1, pageSize: 30 });
  api.carChannels.mockReset().mockResolvedValue([]);
  // the terminal has the whole range asked for on channels 1 and 2 (the timeline shows the asked range)
  api.sendGetVideoList.mockReset().mockImplementation((_car: number, _ch: number, start: string, end: string) => Promise.resolve([rec(1, start, end), rec(2, start, end)]));
  api.historyVideo.mockReset().mockResolvedValue({ token: 'tok', carId: 5, plate: '沪A·6N337', channelNo: 1, flvUrl: '/video-app/replay/tok/flv', audioUrl: '/video-app/replay/tok/g711', startTime: '2026-11-26 08:00:00', endTime: '2026-11-26 08:10:00', paused: false, speed: 1, receiving: false });
  api.historyVideoControl.mockReset().mockResolvedValue({});
  api.fetchTrack.mockReset().mockResolvedValue({ carId: 5, plate: '沪A·6N337', points: [], stops: [], alarms: [], truncated: false });
});

describe('videoReplaying page', () => {
  it('lists the recordings of the last four hours of every channel, on the table and the timeline', SLOW, async () => {
    renderPage();
    const query = await screen.findByTestId('replay-query');
    await waitFor(() => expect((query as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(query);
    await waitFor(() => expect(api.sendGetVideoList).toHaveBeenCalled());
    const [carId, channelNo, start, end] = api.sendGetVideoList.mock.calls[0];
    expect([carId, channelNo]).toEqual([5, 0]);
    expect(new Date(end.replace(' ', 'T')).getTime() - new Date(start.replace(' ', 'T')).getTime()).toBe(4 * 3600_000);
    await waitFor(() => expect(screen.getAllByText(start.slice(5, 16))).toHaveLength(3)); // two rows and the timeline's first tick
    expect(screen.getAllByText('9.0 MB')).toHaveLength(2);
    expect(screen.getByTestId('replay-timeline').querySelectorAll('.tw-replay-seg')).toHaveLength(2);
  });

  it('plays a recording and says so when the browser cannot', SLOW, async () => {
    renderPage();
    const query = await screen.findByTestId('replay-query');
    await waitFor(() => expect((query as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(query);
    const play = await screen.findAllByTestId('replay-play-row');
    fireEvent.click(play[1]);
    const [, , start, end] = api.sendGetVideoList.mock.calls[0];
    await waitFor(() => expect(api.historyVideo).toHaveBeenCalledWith(5, 2, start, end));
    expect(await screen.findByText('本浏览器不支持视频播放')).toBeTruthy();
    fireEvent.click(screen.getByTestId('replay-stop'));
    await waitFor(() => expect(api.historyVideoControl).toHaveBeenCalledWith(5, 'tok', 'stop', {}, false));
  });
});
